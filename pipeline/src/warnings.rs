//! Which warnings a build accepts: `--allow CODE` makes a warning acceptable under strict,
//! `--deny CODE` makes one warning a failure on its own. Codes may hold `*` (any run of
//! characters, dots included: `bwm.*_dropped`, `path.*`). The same rules can live in a
//! project file, `walkmesh.toml`, found in the working folder or the nearest folder above it:
//!
//! ```toml
//! [warnings]
//! strict = true
//! allow = ["bwm.*_dropped", "nwn2.tile_grid_dropped"]
//! deny = ["mesh.steep_walkable"]
//! ```
//!
//! Rules from the command line come after the file's. When both an allow and a deny rule
//! match a code, deny wins: a build that names a warning as fatal is never silenced by a
//! wider allow.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use walkmesh_core::{Diagnostic, Diagnostics, Severity};

use crate::failure::Failure;

/// The project file's name.
pub const PROJECT_FILE: &str = "walkmesh.toml";

/// What a rule does to a warning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    Allow,
    Deny,
}

/// One rule: a code pattern, what it does, and where it was given (`--allow`, `--deny` or
/// the project file's path).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rule {
    pub pattern: String,
    pub action: Action,
    pub from: String,
}

/// A warning and the rule that applied to it (`--json` reports these).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Applied {
    pub code: String,
    pub rule: Rule,
}

/// The rules of one run, and whether warnings fail unless allowed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WarningPolicy {
    pub strict: bool,
    pub rules: Vec<Rule>,
}

/// `[warnings]` of `walkmesh.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProjectFile {
    #[serde(default)]
    warnings: WarningsTable,
    #[serde(default)]
    lint: LintTable,
}

/// `[lint]` of `walkmesh.toml`: `level = "pedantic"` makes `walkmesh lint` report the
/// pedantic group too (the codes and groups are `walkmesh-lint`'s; the CLI checks the name).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct LintTable {
    level: Option<String>,
}

fn read_project_file(path: &Path) -> Result<ProjectFile, Failure> {
    let text = walkmesh_core::files::read_to_string(path)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
    toml::from_str(&text).map_err(|e| Failure::usage(format!("{}: {e}", path.display())))
}

/// The lint level `walkmesh.toml` at `path` names in `[lint] level`, if any.
pub fn project_lint_level(path: &Path) -> Result<Option<String>, Failure> {
    Ok(read_project_file(path)?.lint.level)
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct WarningsTable {
    #[serde(default)]
    strict: bool,
    #[serde(default)]
    allow: Vec<String>,
    #[serde(default)]
    deny: Vec<String>,
}

/// Whether `code` matches `pattern`, where `*` stands for any run of characters.
pub fn matches(pattern: &str, code: &str) -> bool {
    let mut pieces = pattern.split('*');
    let first = pieces.next().unwrap_or_default();
    let Some(mut rest) = code.strip_prefix(first) else {
        return false;
    };
    let pieces: Vec<&str> = pieces.collect();
    let Some((last, middle)) = pieces.split_last() else {
        // No `*`: the whole code must be the pattern.
        return rest.is_empty();
    };
    for piece in middle {
        match rest.find(piece) {
            Some(at) => rest = rest.get(at + piece.len()..).unwrap_or_default(),
            None => return false,
        }
    }
    rest.ends_with(last)
}

impl WarningPolicy {
    /// Adds rules given on the command line.
    pub fn with_flags(mut self, strict: bool, allow: &[String], deny: &[String]) -> Self {
        self.strict |= strict;
        for (patterns, action, from) in [
            (allow, Action::Allow, "--allow"),
            (deny, Action::Deny, "--deny"),
        ] {
            self.rules.extend(patterns.iter().map(|pattern| Rule {
                pattern: pattern.clone(),
                action,
                from: from.to_string(),
            }));
        }
        self
    }

    /// The policy of `walkmesh.toml` at `path`.
    pub fn from_project_file(path: &Path) -> Result<WarningPolicy, Failure> {
        let file = read_project_file(path)?;
        let from = path.display().to_string();
        let table = file.warnings;
        let mut rules = Vec::new();
        for (patterns, action) in [(table.allow, Action::Allow), (table.deny, Action::Deny)] {
            rules.extend(patterns.into_iter().map(|pattern| Rule {
                pattern,
                action,
                from: from.clone(),
            }));
        }
        Ok(WarningPolicy {
            strict: table.strict,
            rules,
        })
    }

    /// The project file's policy found from `start` upward (none: the default policy), and
    /// the file's path.
    pub fn discover(start: &Path) -> Result<(WarningPolicy, Option<PathBuf>), Failure> {
        match find_project_file(start) {
            Some(path) => Ok((WarningPolicy::from_project_file(&path)?, Some(path))),
            None => Ok((WarningPolicy::default(), None)),
        }
    }

    /// The rule that decides `code`: a matching deny rule first, else the last matching allow.
    pub fn rule_for(&self, code: &str) -> Option<&Rule> {
        let matching = |action| {
            self.rules
                .iter()
                .rev()
                .find(move |r| r.action == action && matches(&r.pattern, code))
        };
        matching(Action::Deny).or_else(|| matching(Action::Allow))
    }

    /// Judges the warnings in `diag`: a denied warning fails, and under strict so does any
    /// warning no rule allows (exit 1, nothing written). On success, the rules that applied.
    pub fn judge(
        &self,
        diag: &Diagnostics,
        input: &str,
        output: &str,
        strict_name: &str,
    ) -> Result<Vec<Applied>, Failure> {
        let mut applied = Vec::new();
        let mut failing: Vec<Diagnostic> = Vec::new();
        let mut denied = Vec::new();
        for warning in diag
            .items
            .iter()
            .filter(|d| d.severity >= Severity::Warning)
        {
            match self.rule_for(&warning.code) {
                Some(rule) => {
                    if rule.action == Action::Deny {
                        failing.push(warning.clone());
                        denied.push(format!("{} ({} {})", warning.code, rule.from, rule.pattern));
                    }
                    applied.push(Applied {
                        code: warning.code.clone(),
                        rule: rule.clone(),
                    });
                }
                None if self.strict => failing.push(warning.clone()),
                None => {}
            }
        }
        if failing.is_empty() {
            applied.dedup();
            return Ok(applied);
        }
        denied.dedup();
        let why = if denied.is_empty() {
            format!(
                "{strict_name}: converting {input} gave {} warning(s)",
                failing.len()
            )
        } else {
            format!(
                "converting {input} gave {} warning(s) that fail the build; denied: {}",
                failing.len(),
                denied.join(", ")
            )
        };
        Err(Failure::strict(
            format!("{why}; {output} was not written"),
            failing,
        ))
    }
}

/// `walkmesh.toml` in `start` or the nearest folder above it.
pub fn find_project_file(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .map(|dir| dir.join(PROJECT_FILE))
        .find(|candidate| candidate.is_file())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_whole_codes_with_stars_for_any_run() {
        assert!(matches("bwm.tile_grid_dropped", "bwm.tile_grid_dropped"));
        assert!(!matches("bwm.tile_grid", "bwm.tile_grid_dropped"));
        assert!(matches("bwm.*_dropped", "bwm.attributes_dropped"));
        assert!(matches("bwm.*_dropped", "bwm.extras.x_dropped"));
        assert!(!matches("bwm.*_dropped", "nwn2.attributes_dropped"));
        assert!(!matches("bwm.*_dropped", "bwm.dropped_faces"));
        assert!(matches("*", "anything.at_all"));
        assert!(matches("path.*", "path.heights_adjusted"));
        assert!(matches("*.steep_*", "mesh.steep_walkable"));
        assert!(!matches("a*b*c", "acb"));
        assert!(matches("a*b*c", "a-b-b-c"));
    }

    fn warning(code: &str) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            code: code.into(),
            message: "m".into(),
            location: Default::default(),
        }
    }

    fn diag(codes: &[&str]) -> Diagnostics {
        Diagnostics {
            items: codes.iter().map(|c| warning(c)).collect(),
        }
    }

    #[test]
    fn strict_fails_on_warnings_no_rule_allows() {
        let found = diag(&["bwm.attributes_dropped", "bwm.tile_grid_dropped"]);
        let strict = WarningPolicy::default().with_flags(true, &[], &[]);
        let failure = strict
            .judge(&found, "a.trx", "a.wok", "--strict")
            .unwrap_err();
        assert_eq!(failure.exit_code, crate::failure::EXIT_FINDINGS);
        assert_eq!(failure.diagnostics.len(), 2);
        assert_eq!(
            failure.message,
            "--strict: converting a.trx gave 2 warning(s); a.wok was not written"
        );
        let allowed = strict
            .clone()
            .with_flags(false, &["bwm.*_dropped".into()], &[]);
        let applied = allowed.judge(&found, "a.trx", "a.wok", "--strict").unwrap();
        assert_eq!(applied.len(), 2);
        assert!(
            applied
                .iter()
                .all(|a| a.rule.action == Action::Allow && a.rule.from == "--allow")
        );
        // Without strict, warnings pass whatever the allow rules.
        assert!(
            WarningPolicy::default()
                .judge(&found, "a", "b", "--strict")
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn a_denied_warning_fails_without_strict_and_wins_over_allow() {
        let found = diag(&["mesh.steep_walkable", "bwm.attributes_dropped"]);
        let policy =
            WarningPolicy::default().with_flags(false, &["*".into()], &["mesh.steep_*".into()]);
        let failure = policy
            .judge(&found, "a.obj", "a.wok", "--strict")
            .unwrap_err();
        assert_eq!(failure.diagnostics.len(), 1);
        assert_eq!(failure.diagnostics[0].code, "mesh.steep_walkable");
        assert!(
            failure
                .message
                .contains("denied: mesh.steep_walkable (--deny mesh.steep_*)"),
            "{}",
            failure.message
        );
        let clean = diag(&["bwm.attributes_dropped"]);
        assert_eq!(policy.judge(&clean, "a", "b", "--strict").unwrap().len(), 1);
    }

    #[test]
    fn the_project_file_is_found_upward_and_read() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a/b/c");
        std::fs::create_dir_all(&deep).unwrap();
        assert_eq!(WarningPolicy::discover(&deep).unwrap().1, None);
        let file = dir.path().join("a").join(PROJECT_FILE);
        std::fs::write(
            &file,
            "[warnings]\nstrict = true\nallow = [\"bwm.*_dropped\"]\ndeny = [\"mesh.steep_walkable\"]\n",
        )
        .unwrap();
        let (policy, found) = WarningPolicy::discover(&deep).unwrap();
        assert_eq!(found.as_deref(), Some(file.as_path()));
        assert!(policy.strict);
        let rule = policy.rule_for("bwm.attributes_dropped").unwrap();
        assert_eq!(
            (rule.action, rule.from.as_str()),
            (Action::Allow, file.to_str().unwrap())
        );
        assert_eq!(
            policy.rule_for("mesh.steep_walkable").unwrap().action,
            Action::Deny
        );
        // A typo is an error that names the file, not a silently ignored rule.
        std::fs::write(&file, "[warnings]\nallowed = [\"x\"]\n").unwrap();
        let error = WarningPolicy::discover(&deep).unwrap_err();
        assert!(error.message.contains("walkmesh.toml"), "{}", error.message);
        assert!(error.message.contains("allowed"), "{}", error.message);
    }
}
