//! Which `walkmesh lint` findings a run reports and whether they fail it: the level, the
//! warning rules (`--allow`, `--deny`, `walkmesh.toml`'s `[warnings]`, matching a code or a
//! group such as `lint::pedantic`) and an earlier report (`--baseline`,
//! `walkmesh_lint::baseline`). The checks are `walkmesh-lint`'s; this is the policy over their
//! findings, beside [`crate::warnings`] (whose rules only know codes).

use std::path::{Path, PathBuf};

use serde::Serialize;
use walkmesh_core::{Diagnostics, NavMesh, ReadOptions, Registry, Severity, WeldChoice};
use walkmesh_lint::baseline::Known;
use walkmesh_lint::{Finding, Level};

use crate::convert::{Destination, Origin, WritePlan};
use crate::failure::Failure;
use crate::output::OutputSettings;
use crate::warnings::{Action, Rule, WarningPolicy};

/// A finding with the rule that decided it, as printed.
#[derive(Serialize, Debug)]
pub struct Shown<'a> {
    #[serde(flatten)]
    pub finding: &'a Finding,
    /// `allow`/`deny` and where the rule came from, when one matched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// How findings are chosen and judged: the rules (warnings fail unless allowed: lint is
/// strict by nature), the level, and the baseline's findings.
#[derive(Debug)]
pub struct Selection {
    pub policy: WarningPolicy,
    pub level: Level,
    pub baseline: Option<(PathBuf, Vec<Known>)>,
}

impl Selection {
    /// The selection of a run: `level`, else the project file's `[lint] level`, else the
    /// default; the project file's warning rules (`walkmesh.toml` from the working folder up),
    /// then `allow` and `deny`, strict; and the findings of the earlier report at `baseline`.
    pub fn new(
        level: Option<Level>,
        allow: &[String],
        deny: &[String],
        baseline: Option<&Path>,
    ) -> Result<Selection, Failure> {
        let start = std::env::current_dir().unwrap_or_default();
        let (found, project_file) = WarningPolicy::discover(&start)?;
        let level = match (level, &project_file) {
            (Some(level), _) => level,
            (None, Some(path)) => project_level(path)?,
            (None, None) => Level::Default,
        };
        let baseline = match baseline {
            Some(path) => Some((path.to_path_buf(), read_baseline(path)?)),
            None => None,
        };
        Ok(Selection {
            policy: found.with_flags(true, allow, deny),
            level,
            baseline,
        })
    }
}

/// The `[lint] level` of the project file at `path` (the default when it names none).
fn project_level(path: &Path) -> Result<Level, Failure> {
    match crate::warnings::project_lint_level(path)? {
        Some(name) => Level::parse(&name).ok_or_else(|| {
            Failure::usage(format!(
                "{}: [lint] level = {name:?} is not \"default\" or \"pedantic\"",
                path.display()
            ))
        }),
        None => Ok(Level::Default),
    }
}

/// The findings of an earlier `lint --json` output (`walkmesh_lint::baseline::parse_known`).
fn read_baseline(path: &Path) -> Result<Vec<Known>, Failure> {
    let text = walkmesh_core::files::read_to_string(path)
        .map_err(|e| Failure::usage(format!("cannot read the baseline {}: {e}", path.display())))?;
    walkmesh_lint::baseline::parse_known(&text)
        .map_err(|why| Failure::usage(format!("baseline {}: {why}", path.display())))
}

/// Writes a repaired mesh to `out` (its extension names the format) the way `convert`
/// writes: staged beside it, read back by the target's validator and reader, refused when
/// they find errors. No weld: the repairs decided which vertices are shared.
pub fn write_repaired(
    registry: &Registry,
    out: &Path,
    read: &ReadOptions,
    mesh: &NavMesh,
    names: crate::policy::OptionNames,
) -> Result<(), Failure> {
    let extension = out.extension().and_then(|e| e.to_str()).ok_or_else(|| {
        Failure::usage(format!("{}: no extension to name a format", out.display()))
    })?;
    let (target, _) = crate::target_for(registry, extension)?;
    let mut plan = WritePlan::new(target, read, names)?;
    plan.weld = Some(WeldChoice::Off);
    let settings = OutputSettings {
        force: false,
        create_dirs: false,
        fsync: false,
    };
    // The repaired mesh is in memory: it has no file or format of its own to name.
    crate::convert::convert(
        mesh,
        Origin::default(),
        Destination::File(out, settings),
        &plan,
        Diagnostics::new(),
    )?;
    Ok(())
}

/// Whether `rule` names `finding`: its code (with `*` for any run), or its group.
fn names(rule: &Rule, finding: &Finding) -> bool {
    match Level::of_group(&rule.pattern) {
        Some(group) => group == finding.level,
        None => crate::warnings::matches(&rule.pattern, &finding.code),
    }
}

/// The rule that decides `finding`: a matching deny rule first, else the last matching allow.
pub fn rule_for<'p>(policy: &'p WarningPolicy, finding: &Finding) -> Option<&'p Rule> {
    let matching = |action| {
        policy
            .rules
            .iter()
            .rev()
            .find(move |r| r.action == action && names(r, finding))
    };
    matching(Action::Deny).or_else(|| matching(Action::Allow))
}

/// Whether the run reports `finding`: its group is at or below the level, or a deny rule
/// names its group or its exact code (as clippy's `-D clippy::pedantic` turns lints on; a
/// pattern with `*` does not, so `deny = ["lint.*"]` keeps the level's meaning).
pub fn reported(selection: &Selection, finding: &Finding) -> bool {
    finding.level <= selection.level
        || selection.policy.rules.iter().any(|rule| {
            rule.action == Action::Deny
                && (Level::of_group(&rule.pattern) == Some(finding.level)
                    || rule.pattern == finding.code)
        })
}

/// The findings a run shows, with their rules, and what it left out.
#[derive(Debug)]
pub struct Judged<'a> {
    pub shown: Vec<Shown<'a>>,
    /// Any shown finding fails (warning or above, not allowed).
    pub failed: bool,
    /// Findings of groups above the level.
    pub below_level: usize,
    /// Findings the baseline holds, and baseline findings no longer found.
    pub known: usize,
    pub gone: usize,
}

/// Findings chosen by level and baseline, with their rules, and whether any fails.
pub fn judge<'a>(findings: &'a [Finding], selection: &Selection) -> Judged<'a> {
    let reported: Vec<&Finding> = findings.iter().filter(|f| reported(selection, f)).collect();
    let below_level = findings.len() - reported.len();
    let (new, gone) = match &selection.baseline {
        Some((_, known)) => {
            let comparison = walkmesh_lint::baseline::compare(&reported, known);
            (comparison.new, comparison.gone)
        }
        None => (vec![true; reported.len()], 0),
    };
    let mut failed = false;
    let shown: Vec<Shown<'a>> = reported
        .iter()
        .zip(&new)
        .filter(|(_, new)| **new)
        .map(|(finding, _)| {
            let rule = rule_for(&selection.policy, finding);
            let allowed = rule.is_some_and(|r| r.action == Action::Allow);
            if finding.severity >= Severity::Warning && !allowed {
                failed = true;
            }
            Shown {
                finding,
                rule: rule.map(|r| {
                    let action = if r.action == Action::Allow {
                        "allow"
                    } else {
                        "deny"
                    };
                    format!("{action} ({} {})", r.from, r.pattern)
                }),
            }
        })
        .collect();
    Judged {
        known: reported.len() - shown.len(),
        shown,
        failed,
        below_level,
        gone,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn finding(code: &str, level: Level) -> Finding {
        Finding {
            code: code.into(),
            severity: Severity::Warning,
            faces: vec![1],
            at: Some([0.0, 0.0, 0.0]),
            message: "m".into(),
            fixable: false,
            level,
            area: None,
        }
    }

    fn selection(rules: &[(&str, Action)]) -> Selection {
        let rules = rules
            .iter()
            .map(|(pattern, action)| Rule {
                pattern: (*pattern).into(),
                action: *action,
                from: "--test".into(),
            })
            .collect();
        Selection {
            policy: WarningPolicy {
                strict: true,
                rules,
            },
            level: Level::Default,
            baseline: None,
        }
    }

    #[test]
    fn a_deny_naming_a_pedantic_code_reports_it_and_an_allow_keeps_it_from_failing() {
        let findings = [
            finding("lint.island", Level::Default),
            finding("lint.sliver", Level::Pedantic),
        ];
        let judged = judge(&findings, &selection(&[]));
        assert_eq!((judged.shown.len(), judged.below_level), (1, 1));
        assert!(judged.failed);
        let judged = judge(
            &findings,
            &selection(&[("lint.sliver", Action::Deny), ("lint.*", Action::Allow)]),
        );
        assert_eq!(judged.shown.len(), 2);
        assert_eq!(
            judged.shown[0].rule.as_deref(),
            Some("allow (--test lint.*)")
        );
        assert_eq!(
            judged.shown[1].rule.as_deref(),
            Some("deny (--test lint.sliver)")
        );
        assert!(judged.failed, "the denied pedantic finding fails");
        // A pattern with `*` does not bring pedantic findings in.
        let judged = judge(&findings, &selection(&[("lint.*", Action::Deny)]));
        assert_eq!(judged.shown.len(), 1);
    }
}
