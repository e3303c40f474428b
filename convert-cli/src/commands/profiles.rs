//! `walkmesh profiles [NAME]`: the embedded material profiles, to copy and edit for
//! `--materials FILE`.

use std::io::Write;

use walkmesh_core::material::NEUTRAL_RON;
use walkmesh_core::{MaterialProfile, Registry};

use walkmesh_pipeline::failure::Failure;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A profile name (`neutral`, `kotor`, `nwn2`, `prime`) or a format id (`bwm`, `trx`,
    /// `path`, `obj`, `gltf`): print that profile's RON text. Without it, list them.
    name: Option<String>,
}

/// One embedded profile: its engine name, the formats using it, and its text.
struct Embedded {
    engine: String,
    description: String,
    formats: Vec<&'static str>,
    text: &'static str,
}

fn embedded(registry: &Registry) -> Vec<Embedded> {
    let mut list: Vec<Embedded> = Vec::new();
    let mut add = |text: &'static str, format: Option<&'static str>| {
        if let Some(known) = list.iter_mut().find(|e| std::ptr::eq(e.text, text)) {
            known.formats.extend(format);
            return;
        }
        // The embedded texts are checked by each crate's unit tests.
        let (engine, description) = match MaterialProfile::parse(text) {
            Ok(profile) => (profile.engine, profile.description),
            Err(_) => ("?".into(), String::new()),
        };
        list.push(Embedded {
            engine,
            description,
            formats: format.into_iter().collect(),
            text,
        });
    };
    add(NEUTRAL_RON, None);
    for format in registry.formats() {
        add(
            format.descriptor().material_profile.unwrap_or(NEUTRAL_RON),
            Some(format.descriptor().id),
        );
    }
    list
}

pub fn run(registry: &Registry, args: &Args, stdout: &mut dyn Write) -> Result<i32, Failure> {
    let profiles = embedded(registry);
    let Some(name) = &args.name else {
        writeln!(stdout, "{:<8} {:<16} description", "name", "formats")?;
        for profile in &profiles {
            writeln!(
                stdout,
                "{:<8} {:<16} {}",
                profile.engine,
                profile.formats.join(" "),
                profile.description
            )?;
        }
        writeln!(
            stdout,
            "\n`walkmesh profiles NAME > mine.ron` prints one to edit; use it with --materials mine.ron"
        )?;
        return Ok(0);
    };
    let chosen = profiles.iter().find(|p| {
        p.engine.eq_ignore_ascii_case(name)
            || p.formats.iter().any(|f| f.eq_ignore_ascii_case(name))
    });
    match chosen {
        Some(profile) => {
            write!(stdout, "{}", profile.text)?;
            Ok(0)
        }
        None => Err(Failure::usage(format!(
            "no embedded profile is called {name}; known: {}",
            profiles
                .iter()
                .map(|p| p.engine.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}
