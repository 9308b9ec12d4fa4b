//! The report on `/results`, drawn part by part: the page keeps the HTML of each section it
//! drew and, when the analysis is drawn again (a filter applied, a source ticked, the
//! comparison's sides changed), replaces only the sections whose HTML changed, so the
//! browser parses, styles and lays out only those; the audits, the settings and whatever
//! else a change leaves as it was stay as they are. A new part (a column, a filter, a
//! factor) needs nothing here: it is one more section of [`shapemaze_view::contents::Parts`].

use std::cell::RefCell;
use wasm_bindgen::JsCast;

/// What the report's element shows: each section's key (the part's id, or `empty` for the
/// line that says why nothing is analysed) and its HTML, in order.
#[derive(Default)]
pub(super) struct DrawnParts {
    drawn: RefCell<Vec<(String, String)>>,
}

impl DrawnParts {
    /// Shows `sections` in `el`: the sections whose HTML changed are replaced in place (and
    /// passed to `decorate`, which adds their download buttons); when the list of sections
    /// itself changed, the whole element is drawn again. Returns whether anything changed.
    pub(super) fn show(
        &self,
        el: &web_sys::Element,
        sections: Vec<(String, String)>,
        decorate: impl Fn(&web_sys::Element),
    ) -> bool {
        let mut drawn = self.drawn.borrow_mut();
        let same_list = drawn.len() == sections.len()
            && drawn.iter().zip(&sections).all(|(a, b)| a.0 == b.0)
            && el.child_element_count() as usize == sections.len();
        if !same_list {
            el.set_inner_html(&sections.iter().map(|(_, h)| h.as_str()).collect::<String>());
            decorate(el);
            *drawn = sections;
            return true;
        }
        let children = el.children();
        let mut changed = false;
        for (i, (new, old)) in sections.into_iter().zip(drawn.iter_mut()).enumerate() {
            if new.1 == old.1 {
                continue;
            }
            let Some(child) = children.item(i as u32) else {
                continue;
            };
            // The new section's element, put where the old one stood.
            let holder = document_element("template");
            holder.set_inner_html(&new.1);
            let fresh = holder
                .dyn_ref::<web_sys::HtmlTemplateElement>()
                .and_then(|t| t.content().first_element_child());
            match fresh {
                Some(fresh) => {
                    let _ = child.replace_with_with_node_1(&fresh);
                    decorate(&fresh);
                }
                None => child.set_outer_html(&new.1),
            }
            *old = new;
            changed = true;
        }
        changed
    }
}

/// A new element of the page's document.
fn document_element(tag: &str) -> web_sys::Element {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .expect("a page has a document");
    document.create_element(tag).expect("a known tag")
}
