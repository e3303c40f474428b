//! One module per subcommand: its clap arguments (`Args`) and its `run`.

pub mod area;
pub mod convert;
pub mod diff;
pub mod dump;
pub mod formats;
pub mod generate;
pub mod info;
pub mod lint;
pub mod profiles;
pub mod render;
pub mod route;
pub mod spec;
pub mod stats;
pub mod validate;
pub mod view;
