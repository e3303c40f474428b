//! `walkmesh stats DIR…`: for every stored field across a corpus, its smallest and largest
//! value, how many distinct values it takes, the most common ones, and which files hold the
//! outliers, with unknown fields and leftover bytes flagged. Fields are grouped by the flat
//! dump's path with indices dropped (`aswm.tiles[].size_x`); a short array (a vector, a face's
//! three indices) is counted per component (`faces[][1]`), a longer one over all elements
//! (`aswm.tiles[].path_table.nodes[]`).

use std::cell::RefCell;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rustc_hash::FxHashMap;
use serde::Serialize;
use walkmesh_core::Registry;

use crate::error::{ResearchError, SkipReason};

use crate::fields::{FieldRef, Scalar, is_array, scalars, walk};

thread_local! {
    /// The key of the value being counted (see [`Gather::add`]).
    static KEY: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Distinct values counted per field; past it `distinct` is a lower bound.
pub const DISTINCT_LIMIT: usize = 4096;
/// Most common values listed per field.
const COMMON_SHOWN: usize = 5;
/// Arrays up to this length are counted per component.
const VECTOR_LENGTH: usize = 4;
/// A value is an outlier when it makes up less than 1/OUTLIER_SHARE of a field's values…
const OUTLIER_SHARE: u64 = 100;
/// …and the field takes no more than this many distinct values.
const OUTLIER_DISTINCT: usize = 16;
/// Outlier values listed per field.
const OUTLIERS_SHOWN: usize = 8;
/// Characters of a leftover value kept (as hex).
const LEFTOVER_SHOWN: usize = 64;

/// Words in a field's name that mark it as not understood.
const UNKNOWN_WORDS: [&str; 4] = ["unknown", "unused", "padding", "reserved"];

/// How often one value occurs, and the first file that holds it.
#[derive(Clone, Debug)]
struct Count {
    value: Scalar,
    count: u64,
    file: usize,
}

/// What is gathered for one field.
#[derive(Clone, Debug, Default)]
struct Gather {
    format: &'static str,
    field: String,
    kind: &'static str,
    values: u64,
    files: u64,
    last_file: Option<usize>,
    min: Option<(f64, Scalar, usize)>,
    max: Option<(f64, Scalar, usize)>,
    counts: FxHashMap<String, Count>,
    capped: bool,
    leftover: bool,
    /// For `x[]` (all elements of an array field): the shortest and longest array seen.
    lengths: Option<(usize, usize)>,
    /// For `x[i]` (one component of a short array): the key of `x[]`.
    component_of: Option<String>,
}

impl Gather {
    /// True for an array whose arrays all had the same short length (a vector, a face's
    /// indices): shown per component, not as all elements together.
    fn is_vector(&self) -> bool {
        self.lengths
            .is_some_and(|(low, high)| low == high && high <= VECTOR_LENGTH)
    }
}

/// The fields of one file, in the order first seen.
#[derive(Debug, Default)]
struct Tally {
    gathered: FxHashMap<String, Gather>,
    order: Vec<String>,
}

impl Tally {
    /// The gatherer of field `name`, made on first use (the name is copied only then: this
    /// runs for every value of a corpus).
    fn slot(
        &mut self,
        format: &'static str,
        name: &str,
        kind: &'static str,
        leftover: bool,
    ) -> Option<&mut Gather> {
        if !self.gathered.contains_key(name) {
            self.order.push(name.to_string());
            self.gathered.insert(
                name.to_string(),
                Gather {
                    format,
                    field: name.to_string(),
                    ..Gather::default()
                },
            );
        }
        let gather = self.gathered.get_mut(name)?;
        gather.kind = kind;
        gather.leftover |= leftover;
        Some(gather)
    }
}

/// A leftover's hex cut to LEFTOVER_SHOWN characters (they can be kilobytes).
fn shorten(value: Scalar, leftover: bool) -> Scalar {
    match value {
        Scalar::Text(text) if leftover => Scalar::Text(text.chars().take(LEFTOVER_SHOWN).collect()),
        other => other,
    }
}

impl Gather {
    /// Adds what `other` gathered from later files.
    fn merge(&mut self, other: Gather) {
        self.values += other.values;
        self.files += other.files;
        self.last_file = other.last_file.or(self.last_file);
        if let Some(min) = other.min
            && self.min.as_ref().is_none_or(|(m, _, _)| min.0 < *m)
        {
            self.min = Some(min);
        }
        if let Some(max) = other.max
            && self.max.as_ref().is_none_or(|(m, _, _)| max.0 > *m)
        {
            self.max = Some(max);
        }
        for (key, count) in other.counts {
            if let Some(mine) = self.counts.get_mut(&key) {
                mine.count += count.count;
            } else if self.counts.len() < DISTINCT_LIMIT {
                self.counts.insert(key, count);
            } else {
                self.capped = true;
            }
        }
        self.capped |= other.capped;
        self.leftover |= other.leftover;
        self.kind = other.kind;
        if let Some((low, high)) = other.lengths {
            let (l, h) = self.lengths.unwrap_or((low, high));
            self.lengths = Some((l.min(low), h.max(high)));
        }
        if other.component_of.is_some() {
            self.component_of = other.component_of;
        }
    }

    fn add(&mut self, value: Scalar, file: usize) {
        self.values += 1;
        if self.last_file != Some(file) {
            self.files += 1;
            self.last_file = Some(file);
        }
        if let Some(number) = value.number().filter(|n| !n.is_nan()) {
            if self.min.as_ref().is_none_or(|(m, _, _)| number < *m) {
                self.min = Some((number, value.clone(), file));
            }
            if self.max.as_ref().is_none_or(|(m, _, _)| number > *m) {
                self.max = Some((number, value.clone(), file));
            }
        }
        // The key is formatted into a buffer kept per thread: a corpus has millions of values
        // and few distinct ones, so it is copied only for a value not seen before.
        KEY.with_borrow_mut(|key| {
            key.clear();
            let _ = match &value {
                Scalar::Float(v) => write!(key, "{:?}", *v as f32),
                other => write!(key, "{other}"),
            };
            self.count(key, value, file);
        });
    }

    fn count(&mut self, key: &str, value: Scalar, file: usize) {
        if let Some(count) = self.counts.get_mut(key) {
            count.count += 1;
        } else if self.counts.len() < DISTINCT_LIMIT {
            self.counts.insert(
                key.to_string(),
                Count {
                    value,
                    count: 1,
                    file,
                },
            );
        } else {
            self.capped = true;
        }
    }
}

/// One value and how often it occurs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Common {
    pub value: serde_json::Value,
    pub count: u64,
}

/// A rare value and the first file holding it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outlier {
    pub value: serde_json::Value,
    pub count: u64,
    pub file: String,
}

/// The extreme value of a field and the first file holding it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Extreme {
    pub value: serde_json::Value,
    pub file: String,
}

/// The statistics of one field.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldStats {
    /// The format id (`bwm`, `trx`, `path`): the same path in two formats is two fields.
    pub format: &'static str,
    pub field: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Values seen (elements, for arrays counted over all elements).
    pub count: u64,
    /// Files holding the field.
    pub files: u64,
    pub min: Option<Extreme>,
    pub max: Option<Extreme>,
    /// Distinct values (a lower bound when `distinct_capped`).
    pub distinct: usize,
    pub distinct_capped: bool,
    pub common: Vec<Common>,
    /// Values that make up under 1% of a field of few distinct values, with a file holding
    /// each: where "always 0" is not quite always.
    pub outliers: Vec<Outlier>,
    /// `unknown` for fields whose meaning nobody knows; `leftover` for bytes no field covers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<&'static str>,
}

/// A file that was not counted, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Skipped {
    pub file: String,
    pub reason: String,
}

/// The statistics of a corpus.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    /// Files counted.
    pub files: usize,
    /// Files counted, per format id.
    pub formats: Vec<(String, usize)>,
    pub fields: Vec<FieldStats>,
    pub skipped: Vec<Skipped>,
}

/// The field's path with record indices dropped: `tiles[3].size_x` → `tiles[].size_x`.
pub fn pattern(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut chars = path.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c == '[' {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
        }
    }
    out
}

/// What a path that is neither a folder nor a regular file is, in words.
fn special_kind(file_type: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    let _ = file_type;
    "a special file"
}

/// Every regular file under `dirs`, sorted, and the other things met in the folders (FIFOs,
/// devices, sockets: reading one would block or never end) with what they are. A path given
/// directly that does not exist or is not a folder or regular file is an error that says
/// which.
pub fn files_under(dirs: &[PathBuf]) -> Result<(Vec<PathBuf>, Vec<Skipped>), ResearchError> {
    let mut files = Vec::new();
    let mut special = Vec::new();
    let mut stack: Vec<(PathBuf, bool)> = dirs.iter().map(|d| (d.clone(), true)).collect();
    while let Some((path, given)) = stack.pop() {
        let metadata = std::fs::metadata(&path).map_err(|source| match source.kind() {
            std::io::ErrorKind::NotFound => ResearchError::NotFound { path: path.clone() },
            _ => ResearchError::Metadata {
                path: path.clone(),
                source,
            },
        })?;
        let file_type = metadata.file_type();
        if file_type.is_dir() {
            let list = |source| ResearchError::List {
                path: path.clone(),
                source,
            };
            let entries = std::fs::read_dir(&path).map_err(list)?;
            for entry in entries {
                let entry = entry.map_err(list)?;
                stack.push((entry.path(), false));
            }
        } else if file_type.is_file() {
            files.push(path);
        } else {
            let kind = special_kind(file_type);
            if given {
                return Err(ResearchError::NotRegularFile { path, kind });
            }
            special.push(Skipped {
                file: path.display().to_string(),
                reason: SkipReason::NotRegularFile { kind }.to_string(),
            });
        }
    }
    files.sort();
    files.dedup();
    special.sort_by(|a, b| a.file.cmp(&b.file));
    Ok((files, special))
}

/// Files tallied at once: each is tallied on its own (in parallel), then merged in file
/// order, so the result is the sequential one; the window bounds how many tallies are held.
const WINDOW_PER_THREAD: usize = 1;

/// Gathers the statistics of every file under `dirs` that a format with a field dump reads.
///
/// Files are read and tallied on all the threads [`walkmesh_core::threads::available`] allows
/// (each with a budget of one, so a dumper starts no threads of its own) and merged in the
/// order of the sorted file list: the statistics are the same as one file after the other.
pub fn corpus_stats(registry: &Registry, dirs: &[PathBuf]) -> Result<Stats, ResearchError> {
    let (files, special) = files_under(dirs)?;
    // A file is named by its index in `files` (skipped ones too): the order of the counted
    // files is the same, so the first file holding a value is the same as counting only those.
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let mut merged = Merged::default();
    let threads = walkmesh_core::threads::available();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| ResearchError::Threads {
            threads,
            reason: e.to_string(),
        })?;
    let indexed: Vec<(usize, &PathBuf)> = files.iter().enumerate().collect();
    // The pool's threads read for the running command: in its scope (walkmesh_core::files).
    let reads = walkmesh_core::files::Scope::current();
    for window in indexed.chunks(threads * WINDOW_PER_THREAD) {
        let tallies: Vec<Result<(&'static str, Tally), SkipReason>> = pool.install(|| {
            use rayon::prelude::*;
            window
                .par_iter()
                .map(|&(index, file)| {
                    walkmesh_core::files::within(reads.clone(), || {
                        walkmesh_core::threads::with_budget(1, || tally_file(registry, file, index))
                    })
                })
                .collect()
        });
        for (&(index, _), tally) in window.iter().zip(tallies) {
            let shown = names.get(index).cloned().unwrap_or_default();
            match tally {
                Ok((format, tally)) => merged.add(format, tally),
                Err(reason) => merged.skipped.push(Skipped {
                    file: shown,
                    reason: reason.to_string(),
                }),
            }
        }
    }
    let Merged {
        gathered,
        order,
        counted,
        formats,
        mut skipped,
    } = merged;
    // Folder entries that are not regular files come after the files that failed.
    skipped.extend(special);
    let fields = order
        .iter()
        .filter_map(|key| gathered.get(key))
        .filter(|g| shown(g, &gathered))
        .map(|g| summarise(g, &names))
        .collect();
    Ok(Stats {
        files: counted,
        formats,
        fields,
        skipped,
    })
}

/// What the files tallied so far add up to.
#[derive(Debug, Default)]
struct Merged {
    gathered: FxHashMap<String, Gather>,
    /// Keys of `gathered`, in the order first seen.
    order: Vec<String>,
    /// Files counted.
    counted: usize,
    formats: Vec<(String, usize)>,
    skipped: Vec<Skipped>,
}

impl Merged {
    /// Adds the tally of the next file (of format `format`).
    fn add(&mut self, format: &'static str, tally: Tally) {
        let Tally {
            mut gathered,
            order,
        } = tally;
        for name in order {
            let Some(one) = gathered.remove(&name) else {
                continue;
            };
            let key = format!("{format} {name}");
            match self.gathered.get_mut(&key) {
                Some(g) => g.merge(one),
                None => {
                    self.order.push(key.clone());
                    self.gathered.insert(key, one);
                }
            }
        }
        self.counted += 1;
        match self.formats.iter_mut().find(|(id, _)| *id == format) {
            Some((_, n)) => *n += 1,
            None => self.formats.push((format.to_string(), 1)),
        }
    }
}

/// Whether `g` is listed: an array's components when it is a vector, else all its elements.
fn shown(g: &Gather, gathered: &FxHashMap<String, Gather>) -> bool {
    match &g.component_of {
        Some(all) => gathered.get(all).is_some_and(Gather::is_vector),
        None => !g.is_vector(),
    }
}

/// The fields of `file` (number `index` in the file list) and its format's id.
fn tally_file(
    registry: &Registry,
    file: &Path,
    index: usize,
) -> Result<(&'static str, Tally), SkipReason> {
    let bytes = walkmesh_core::files::read(file).map_err(SkipReason::Unreadable)?;
    let format = walkmesh_pipeline::detect(registry, &bytes, file, None)
        .map_err(SkipReason::NotAWalkmesh)?;
    let dumper = format.dumper().ok_or(SkipReason::NoFieldDump {
        format: format.descriptor().id,
    })?;
    // Fields of a file that fails part-way are not counted: the file is tallied on its own
    // first (bounded like the whole: at most DISTINCT_LIMIT values per field), then merged.
    let id = format.descriptor().id;
    let mut tally = Tally::default();
    let mut component = String::new();
    walk(dumper, &bytes, Some(file), |f: FieldRef<'_>| {
        let base = pattern(f.path);
        let kind = f.entry.elem.name();
        let values = scalars(f.entry);
        let Some(length) = is_array(f.entry).then_some(values.len()) else {
            for value in values {
                if let Some(g) = tally.slot(id, &base, kind, f.leftover) {
                    g.add(shorten(value, f.leftover), index);
                }
            }
            return;
        };
        let all = format!("{base}[]");
        for (i, value) in values.into_iter().enumerate() {
            let value = shorten(value, f.leftover);
            if length <= VECTOR_LENGTH {
                component.clear();
                let _ = write!(component, "{base}[{i}]");
                if let Some(g) = tally.slot(id, &component, kind, f.leftover) {
                    if g.component_of.is_none() {
                        g.component_of = Some(format!("{id} {all}"));
                    }
                    g.add(value.clone(), index);
                }
            }
            if let Some(g) = tally.slot(id, &all, kind, f.leftover) {
                let (low, high) = g.lengths.unwrap_or((length, length));
                g.lengths = Some((low.min(length), high.max(length)));
                g.add(value, index);
            }
        }
    })
    .map_err(SkipReason::Undumpable)?;
    Ok((id, tally))
}

fn summarise(g: &Gather, names: &[String]) -> FieldStats {
    let field = g.field.as_str();
    let name_of = |i: usize| names.get(i).cloned().unwrap_or_default();
    let mut counts: Vec<&Count> = g.counts.values().collect();
    counts.sort_by(|x, y| y.count.cmp(&x.count).then(x.file.cmp(&y.file)));
    let common = counts
        .iter()
        .take(COMMON_SHOWN)
        .map(|c| Common {
            value: c.value.to_json(),
            count: c.count,
        })
        .collect();
    let outliers = if !g.capped && counts.len() <= OUTLIER_DISTINCT && counts.len() > 1 {
        counts
            .iter()
            .rev()
            .filter(|c| c.count.saturating_mul(OUTLIER_SHARE) < g.values)
            .take(OUTLIERS_SHOWN)
            .map(|c| Outlier {
                value: c.value.to_json(),
                count: c.count,
                file: name_of(c.file),
            })
            .collect()
    } else {
        Vec::new()
    };
    let extreme = |e: &Option<(f64, Scalar, usize)>| {
        e.as_ref().map(|(_, value, file)| Extreme {
            value: value.to_json(),
            file: name_of(*file),
        })
    };
    let mut flags = Vec::new();
    let lower = field.to_ascii_lowercase();
    if UNKNOWN_WORDS.iter().any(|w| lower.contains(w)) {
        flags.push("unknown");
    }
    if g.leftover {
        flags.push("leftover");
    }
    FieldStats {
        format: g.format,
        field: field.to_string(),
        kind: g.kind,
        count: g.values,
        files: g.files,
        min: extreme(&g.min),
        max: extreme(&g.max),
        distinct: g.counts.len(),
        distinct_capped: g.capped,
        common,
        outliers,
        flags,
    }
}

impl Stats {
    /// A readable table: one block per field.
    pub fn to_text(&self) -> String {
        let mut text = format!("{} file(s)", self.files);
        for (id, n) in &self.formats {
            text.push_str(&format!(", {n} {id}"));
        }
        text.push('\n');
        for f in &self.fields {
            let flags = if f.flags.is_empty() {
                String::new()
            } else {
                format!("  [{}]", f.flags.join(", "))
            };
            let range = match (&f.min, &f.max) {
                (Some(min), Some(max)) => format!(
                    "  min {} ({})  max {} ({})",
                    min.value, min.file, max.value, max.file
                ),
                _ => String::new(),
            };
            text.push_str(&format!(
                "{} {} {}: {} value(s) in {} file(s), {}{} distinct{range}{flags}\n",
                f.format,
                f.field,
                f.kind,
                f.count,
                f.files,
                f.distinct,
                if f.distinct_capped { "+" } else { "" }
            ));
            let common: Vec<String> = f
                .common
                .iter()
                .map(|c| format!("{} ×{}", c.value, c.count))
                .collect();
            text.push_str(&format!("    common: {}\n", common.join(", ")));
            for o in &f.outliers {
                text.push_str(&format!(
                    "    outlier: {} ×{} (first in {})\n",
                    o.value, o.count, o.file
                ));
            }
        }
        for s in &self.skipped {
            text.push_str(&format!("skipped {}: {}\n", s.file, s.reason));
        }
        text
    }
}
