//! The people's build's entry point (`index.html`, `data-bin="shapemaze-people"`): the
//! front door, `/play`, `/demo` and `/study`. It links none of the lab's pages, so a
//! participant's phone downloads only what these pages use (scripts/people-check.sh).

#[cfg(target_arch = "wasm32")]
fn main() {
    shapemaze_web::start(shapemaze_web::PeopleApp);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "shapemaze-people is the browser app: run `make serve` and open http://127.0.0.1:8080"
    );
    std::process::exit(2);
}
