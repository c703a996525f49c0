//! The `pgnkit` command.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    match cli::run() {
        Ok(code) => code.into(),
        Err(err) => {
            if cli::is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            cli::message!("pgnkit: {err:#}");
            cli::Exit::Usage.into()
        }
    }
}
