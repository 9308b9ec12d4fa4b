//! The `shapemaze` command line (see `shapemaze --help` and [`shapemaze::cli`]). On wasm32,
//! where there is no terminal, it does nothing; the crate still builds there.

/// mimalloc instead of the system allocator: the readers make many small strings, on as many
/// threads as there are cores (`shapemaze score`), where it is markedly faster.
#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    std::process::exit(shapemaze::cli::main());
}
