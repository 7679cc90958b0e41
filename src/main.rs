use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    baroque::cli::run(baroque::cli::Cli::parse())
}
