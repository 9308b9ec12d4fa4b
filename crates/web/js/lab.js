// The lab pages' few browser calls that web-sys does not make simpler: raw deflate through
// the browser's streams, the bytes of chosen files, download buttons after charts and
// tables, and a form's named fields. Bound in crates/web/src/experiment/mod.rs; trunk ships this
// file with the wasm (wasm-bindgen's snippets).
export async function deflate_raw(bytes, inflate) {
  const s = new Blob([bytes]).stream().pipeThrough(
    inflate ? new DecompressionStream('deflate-raw') : new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(s).arrayBuffer());
}
export async function file_bytes(input) {
  const out = [];
  for (const f of input.files || []) out.push(f.webkitRelativePath || f.name, new Uint8Array(await f.arrayBuffer()));
  return out;
}
// `table_action` and `chart_action` are the buttons' data-action values (the page's
// ResultsAction names, passed in so that no name is written twice).
export function decorate(root, table_action, chart_action) {
  for (const el of root.querySelectorAll('figure > svg, table[data-testid^="table-"]')) {
    const id = el.dataset.testid || (el.closest('[data-testid]') || {}).dataset?.testid || '';
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'button small';
    b.dataset.action = el.tagName === 'TABLE' ? table_action : chart_action;
    // The button names the file it saves (the page saves `${target}.csv` or `.svg`), so two
    // buttons side by side never read the same.
    const file = `${id}.${el.tagName === 'TABLE' ? 'csv' : 'svg'}`;
    b.textContent = `Download ${file}`;
    b.title = `Download this ${el.tagName === 'TABLE' ? 'table as CSV' : 'chart as SVG'} (${file})`;
    b.dataset.target = id;
    el.insertAdjacentElement('afterend', b);
  }
}
export function form_fields(form) {
  const out = [];
  for (const el of form.querySelectorAll('[name]')) {
    if (el.type === 'checkbox' && !el.checked) continue;
    out.push(el.name, el.value);
  }
  return out;
}
