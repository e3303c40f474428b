//! The writer parameters formats declare (`FormatDescriptor::params`: NWN2's `--template` and
//! `--compression`, Metroid Prime's `--region-height` …) as `convert` flags. The flags are made
//! from the registry's declarations when the command line is built ([`add_to_convert`]), so a
//! format brings its own options; the values given come back as `WriteOptions::params`
//! entries ([`FormatParams`]).

use std::path::PathBuf;

use clap::builder::TypedValueParser;
use clap::{Arg, ArgMatches, Command};
use walkmesh_core::{Param, ParamKind, Registry};

use crate::input::{fraction, non_negative_distance, positive};

/// Ids of the generated arguments: this prefix, then the parameter's key.
const ID_PREFIX: &str = "format-param:";

/// The format parameters given on the command line: (key, value) as the writers read them.
#[derive(Debug, Clone, Default)]
pub struct FormatParams {
    pub values: Vec<(String, String)>,
}

impl FormatParams {
    /// The files among the values (parameters of kind `File`, such as `--template`): the
    /// output depends on them.
    pub fn files(&self, registry: &Registry) -> Vec<PathBuf> {
        let declared = registry.params();
        self.values
            .iter()
            .filter(|(key, _)| {
                declared
                    .iter()
                    .any(|p| p.key == key && p.kind == ParamKind::File)
            })
            .map(|(_, value)| PathBuf::from(value))
            .collect()
    }
}

impl clap::FromArgMatches for FormatParams {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let values = matches
            .ids()
            .filter_map(|id| {
                let key = id.as_str().strip_prefix(ID_PREFIX)?;
                let value = matches.try_get_one::<String>(id.as_str()).ok()??;
                Some((key.to_string(), value.clone()))
            })
            .collect();
        Ok(FormatParams { values })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = FormatParams::from_arg_matches(matches)?;
        Ok(())
    }
}

/// The flags are added from the registry by [`add_to_convert`], not here: the derive's
/// hooks see no registry.
impl clap::Args for FormatParams {
    fn augment_args(command: Command) -> Command {
        command
    }
    fn augment_args_for_update(command: Command) -> Command {
        command
    }
}

/// The flag of `param`: `--region-height <HEIGHT>`, the declared help, and the check of its
/// kind (the messages of the command line's other number options); the value is kept as the
/// text the writer reads (`1.5`, a path).
fn flag(param: &Param) -> Arg {
    let long = param.name.replace('_', "-");
    let arg = Arg::new(format!("{ID_PREFIX}{}", param.key))
        .long(long)
        .value_name(param.value_name)
        .help(param.help)
        .num_args(1);
    match param.kind {
        ParamKind::File => arg.value_parser(
            clap::builder::PathBufValueParser::new()
                .map(|path: PathBuf| path.display().to_string()),
        ),
        ParamKind::Integer { min, max } => arg
            .value_parser(
                clap::value_parser!(u64)
                    .range(min..=max)
                    .map(|value| value.to_string()),
            )
            .allow_negative_numbers(true),
        ParamKind::Positive => arg.value_parser(number(positive)).allow_hyphen_values(true),
        ParamKind::NonNegative => arg
            .value_parser(number(non_negative_distance))
            .allow_hyphen_values(true),
        ParamKind::Fraction => arg.value_parser(number(fraction)).allow_hyphen_values(true),
    }
}

/// A number parser whose value is kept as text.
fn number<T: ToString + Clone + Send + Sync + 'static>(
    parse: fn(&str) -> Result<T, String>,
) -> impl TypedValueParser<Value = String> {
    parse.map(|value: T| value.to_string())
}

/// Adds the registry's format parameters to `convert`, shown in its help right after
/// `--weld` (where the command line has always listed them).
pub fn add_to_convert(root: Command, registry: &Registry) -> Command {
    root.mut_subcommand("convert", |mut convert| {
        let params = registry.params();
        let ids: Vec<String> = params
            .iter()
            .map(|p| format!("{ID_PREFIX}{}", p.key))
            .collect();
        for param in &params {
            convert = convert.arg(flag(param));
        }
        // Display order: every argument as declared, the parameters after `--weld`.
        let mut order: Vec<String> = convert
            .get_arguments()
            .map(|a| a.get_id().as_str().to_string())
            .filter(|id| !ids.contains(id))
            .collect();
        let at = order
            .iter()
            .position(|id| id == "weld")
            .map_or(order.len(), |i| i + 1);
        order.splice(at..at, ids);
        for (index, id) in order.into_iter().enumerate() {
            convert = convert.mut_arg(id, |arg| arg.display_order(index));
        }
        convert
    })
}
