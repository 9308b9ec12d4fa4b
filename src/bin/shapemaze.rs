//! The `shapemaze` command line (see `shapemaze --help` and [`shapemaze::cli`]). On wasm32,
//! where there is no terminal, it does nothing; the crate still builds there.

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    std::process::exit(shapemaze::cli::main());
}
