//! The web app's entry point, built to WebAssembly by trunk (`data-bin="shapemaze-web"`).

#[cfg(target_arch = "wasm32")]
fn main() {
    // A panic is a bug: say so in the console with its message and place.
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&format!("Shapemaze hit a bug: {info}").into());
    }));
    leptos::mount::mount_to_body(shapemaze_web::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("shapemaze-web is the browser app: run `make serve` and open http://127.0.0.1:8080");
    std::process::exit(2);
}
