//! One module per subcommand: its clap arguments (`Args`) and its `run`.

pub mod area;
pub mod convert;
pub mod dump;
pub mod formats;
pub mod info;
pub mod validate;
