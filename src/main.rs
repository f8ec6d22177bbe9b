//! The `barsoom` binary.

fn main() -> std::process::ExitCode {
    barsoom::cli::main_with_args(std::env::args_os())
}
