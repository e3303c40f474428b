//! Make/Ninja dependency files: which files an output was made from, so a build system
//! rebuilds it when any of them changes (`--depfile FILE`).

use std::path::{Path, PathBuf};

/// One rule: `TARGET…: PREREQUISITE…`, each path escaped for Make (and Ninja, which reads the
/// same syntax): a space or `#` gets a backslash, `$` is doubled. Ends with a newline.
pub fn rule(targets: &[PathBuf], prerequisites: &[PathBuf]) -> String {
    let join = |paths: &[PathBuf]| {
        paths
            .iter()
            .map(|p| escape(p))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut line = join(targets);
    line.push(':');
    if !prerequisites.is_empty() {
        line.push(' ');
        line.push_str(&join(prerequisites));
    }
    line.push('\n');
    line
}

fn escape(path: &Path) -> String {
    let text = path.to_string_lossy();
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            ' ' | '#' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '$' => out.push_str("$$"),
            // A line break cannot be written in a rule; such a name is shown with `?`.
            '\n' | '\r' => out.push('?'),
            _ => out.push(c),
        }
    }
    out
}

/// Prerequisites in first-seen order, each once.
pub fn unique(paths: impl IntoIterator<Item = PathBuf>) -> Vec<PathBuf> {
    let mut seen = std::collections::BTreeSet::new();
    paths
        .into_iter()
        .filter(|p| seen.insert(p.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_escape_what_make_would_split_or_expand() {
        let targets = [PathBuf::from("out/room.obj"), PathBuf::from("out/room.mtl")];
        let prerequisites = [
            PathBuf::from("in/my room.gltf"),
            PathBuf::from("in/my room.bin"),
            PathBuf::from("costs$1#2.ron"),
        ];
        assert_eq!(
            rule(&targets, &prerequisites),
            "out/room.obj out/room.mtl: in/my\\ room.gltf in/my\\ room.bin costs$$1\\#2.ron\n"
        );
        assert_eq!(rule(&targets[..1], &[]), "out/room.obj:\n");
        assert_eq!(
            unique([PathBuf::from("a"), PathBuf::from("b"), PathBuf::from("a")]),
            [PathBuf::from("a"), PathBuf::from("b")]
        );
    }
}
