//! `walkmesh spec FORMAT --format ksy`: a Kaitai Struct spec of a binary format.

use std::io::Write;

use clap::ValueEnum;
use walkmesh_research::spec::{Spec, spec_text};

use walkmesh_pipeline::failure::Failure;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The format: `bwm` (KotOR .wok/.pwk/.dwk), `aswm` (the inflated NWN2 walkmesh that
    /// `walkmesh dump --extract aswm-body` writes), `path` (Metroid Prime PATH).
    #[arg(value_enum)]
    spec: SpecArg,
    /// The spec language (Kaitai Struct YAML).
    #[arg(long, value_enum, default_value_t = SpecSyntax::Ksy)]
    format: SpecSyntax,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum SpecArg {
    Bwm,
    Aswm,
    Path,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum SpecSyntax {
    Ksy,
}

pub fn run(args: &Args, stdout: &mut dyn Write) -> Result<i32, Failure> {
    let spec = match args.spec {
        SpecArg::Bwm => Spec::Bwm,
        SpecArg::Aswm => Spec::Aswm,
        SpecArg::Path => Spec::Path,
    };
    let SpecSyntax::Ksy = args.format;
    write!(stdout, "{}", spec_text(spec))?;
    Ok(0)
}
