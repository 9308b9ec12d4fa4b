//! The lab build's entry point (`lab.html`, `data-bin="shapemaze-web"`): `/model`,
//! `/experiment`, `/results` and `/study/manage`.

#[cfg(target_arch = "wasm32")]
fn main() {
    shapemaze_web::start(shapemaze_web::LabApp);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("shapemaze-web is the browser app: run `make serve` and open http://127.0.0.1:8080");
    std::process::exit(2);
}
