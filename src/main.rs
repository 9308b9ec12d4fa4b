//! The web app's entry point, built to WebAssembly by trunk (`data-bin="shapemaze-web"`).

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(shapemaze::app::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("shapemaze-web is the browser app: run `make serve` and open http://127.0.0.1:8080");
    std::process::exit(2);
}
