//! Games as Parquet rows (`tags --format parquet`, `convert --to
//! parquet`): the columns of a table, the rows that the workers fill for
//! each batch of games, and the file, written one row group at a time in
//! input order so that memory stays bounded. The schemas are in
//! `docs/parquet.md`.
//!
//! Every column is optional (a missing tag is null). A list column is a
//! standard three-level `LIST` with optional items: a clock missing at
//! one ply is a null item, and the list keeps one item per ply.

use std::io;
use std::path::Path;
use std::sync::Arc;

use anyhow::Context as _;
use parquet::basic::{Compression, LogicalType, Repetition, Type as Physical, ZstdLevel};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;

use super::output::Output;
use super::report::Merge;

/// Rows per row group: some MB of games with their moves, held in memory
/// until the group is written. Every row group but the last has exactly
/// this many, so the file does not depend on how the games were batched
/// (`--jobs`).
pub const ROW_GROUP_ROWS: usize = 4096;

/// The environment variable that overrides [`ROW_GROUP_ROWS`]. Not an
/// option: tests set it low so that small files have many row groups.
pub const ROW_GROUP_ROWS_VAR: &str = "PGNKIT_PARQUET_ROWS";

/// What the values of a column are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// 64-bit integers.
    Int,
    /// Doubles.
    Real,
    /// UTF-8 strings.
    Text,
    /// Booleans.
    Bool,
}

/// A column of a table: its name, its values and whether a row holds a
/// list of them.
#[derive(Debug, Clone)]
pub struct Spec {
    /// The column's name.
    pub name: String,
    /// What its values are.
    pub kind: Kind,
    /// A list per row.
    pub list: bool,
}

impl Spec {
    /// A column of one value per row.
    pub fn one(name: &str, kind: Kind) -> Spec {
        Spec {
            name: name.to_string(),
            kind,
            list: false,
        }
    }

    /// A column of a list per row.
    pub fn list(name: &str, kind: Kind) -> Spec {
        Spec {
            name: name.to_string(),
            kind,
            list: true,
        }
    }
}

/// One value of a row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value<'a> {
    /// Missing.
    Null,
    /// An integer.
    Int(i64),
    /// A double.
    Real(f64),
    /// A string.
    Text(&'a str),
    /// A boolean.
    Bool(bool),
}

/// The values of one column, without the nulls; strings one after
/// another in one buffer, with where each ends.
#[derive(Debug, PartialEq)]
enum Values {
    Int(Vec<i64>),
    Real(Vec<f64>),
    Text(Vec<u8>, Vec<usize>),
    Bool(Vec<bool>),
}

/// A column's values with their definition and repetition levels.
#[derive(Debug, PartialEq)]
struct Column {
    values: Values,
    def: Vec<i16>,
    rep: Vec<i16>,
}

impl Column {
    fn new(kind: Kind) -> Column {
        let values = match kind {
            Kind::Int => Values::Int(Vec::new()),
            Kind::Real => Values::Real(Vec::new()),
            Kind::Text => Values::Text(Vec::new(), Vec::new()),
            Kind::Bool => Values::Bool(Vec::new()),
        };
        Column {
            values,
            def: Vec::new(),
            rep: Vec::new(),
        }
    }

    /// Stores `value` if it is one of the column's kind; returns whether
    /// it was (anything else is null).
    fn store(&mut self, value: Value<'_>) -> bool {
        match (&mut self.values, value) {
            (Values::Int(v), Value::Int(x)) => v.push(x),
            (Values::Real(v), Value::Real(x)) if x.is_finite() => v.push(x),
            (Values::Text(text, ends), Value::Text(x)) => {
                text.extend_from_slice(x.as_bytes());
                ends.push(text.len());
            }
            (Values::Bool(v), Value::Bool(x)) => v.push(x),
            _ => return false,
        }
        true
    }

    /// Takes the first `n` rows off the column.
    fn take_front(&mut self, n: usize) -> Column {
        let list = !self.rep.is_empty();
        // Where row `n` starts among the levels: a list's rows start at
        // repetition level 0.
        let levels = if list {
            self.rep
                .iter()
                .enumerate()
                .filter(|(_, r)| **r == 0)
                .nth(n)
                .map_or(self.rep.len(), |(i, _)| i)
        } else {
            n.min(self.def.len())
        };
        let max = if list { 3 } else { 1 };
        let count = self.def[..levels].iter().filter(|d| **d == max).count();
        let values = match &mut self.values {
            Values::Int(v) => Values::Int(v.drain(..count).collect()),
            Values::Real(v) => Values::Real(v.drain(..count).collect()),
            Values::Text(text, ends) => {
                let cut = count.checked_sub(1).map_or(0, |last| ends[last]);
                let front: Vec<usize> = ends.drain(..count).collect();
                for end in ends.iter_mut() {
                    *end -= cut;
                }
                Values::Text(text.drain(..cut).collect(), front)
            }
            Values::Bool(v) => Values::Bool(v.drain(..count).collect()),
        };
        Column {
            values,
            def: self.def.drain(..levels).collect(),
            rep: if list {
                self.rep.drain(..levels).collect()
            } else {
                Vec::new()
            },
        }
    }

    fn append(&mut self, other: Column) {
        match (&mut self.values, other.values) {
            (Values::Int(a), Values::Int(b)) => a.extend(b),
            (Values::Real(a), Values::Real(b)) => a.extend(b),
            (Values::Text(a, a_ends), Values::Text(b, b_ends)) => {
                let base = a.len();
                a.extend(b);
                a_ends.extend(b_ends.into_iter().map(|end| end + base));
            }
            (Values::Bool(a), Values::Bool(b)) => a.extend(b),
            // Both come from the same specs.
            _ => {}
        }
        self.def.extend(other.def);
        self.rep.extend(other.rep);
    }
}

/// Rows of a table, column by column: what the workers make of a batch of
/// games, and what the output gathers until a row group is full.
#[derive(Debug, Default, PartialEq)]
pub struct Rows {
    columns: Vec<Column>,
    rows: usize,
}

impl Merge for Rows {
    fn merge(&mut self, other: Rows) {
        if self.columns.is_empty() {
            *self = other;
            return;
        }
        for (column, more) in self.columns.iter_mut().zip(other.columns) {
            column.append(more);
        }
        self.rows += other.rows;
    }
}

impl Rows {
    /// Takes the first `n` rows (at most all of them).
    fn take_front(&mut self, n: usize) -> Rows {
        let n = n.min(self.rows);
        self.rows -= n;
        Rows {
            columns: self.columns.iter_mut().map(|c| c.take_front(n)).collect(),
            rows: n,
        }
    }

    /// Starts a row of a table with columns `specs`; its values follow in
    /// column order.
    pub fn row<'r>(&'r mut self, specs: &'r [Spec]) -> Row<'r> {
        if self.columns.is_empty() {
            self.columns = specs.iter().map(|s| Column::new(s.kind)).collect();
        }
        self.rows += 1;
        Row {
            rows: self,
            specs,
            at: 0,
        }
    }
}

/// A row being filled, column after column.
pub struct Row<'r> {
    rows: &'r mut Rows,
    specs: &'r [Spec],
    at: usize,
}

impl Row<'_> {
    /// The next column's value (of a column of one value per row).
    pub fn value(&mut self, value: Value<'_>) -> &mut Self {
        if let Some(column) = self.rows.columns.get_mut(self.at) {
            debug_assert!(!self.specs[self.at].list, "{}", self.specs[self.at].name);
            let present = column.store(value);
            column.def.push(i16::from(present));
        }
        self.at += 1;
        self
    }

    /// The next column's list (`None`: a null list).
    pub fn list<'v>(&mut self, items: Option<impl IntoIterator<Item = Value<'v>>>) -> &mut Self {
        if let Some(column) = self.rows.columns.get_mut(self.at) {
            debug_assert!(self.specs[self.at].list, "{}", self.specs[self.at].name);
            match items {
                None => {
                    column.def.push(0);
                    column.rep.push(0);
                }
                Some(items) => {
                    let mut first = true;
                    for item in items {
                        let present = column.store(item);
                        column.def.push(if present { 3 } else { 2 });
                        column.rep.push(if first { 0 } else { 1 });
                        first = false;
                    }
                    if first {
                        // An empty list.
                        column.def.push(1);
                        column.rep.push(0);
                    }
                }
            }
        }
        self.at += 1;
        self
    }
}

/// A Parquet file being written to the output.
pub struct File<'o> {
    writer: SerializedFileWriter<&'o mut Output>,
    /// Rows per row group.
    group: usize,
}

/// The schema of a table with columns `specs`.
fn schema(specs: &[Spec]) -> parquet::errors::Result<Type> {
    let mut fields = Vec::new();
    for spec in specs {
        let repetition = Repetition::OPTIONAL;
        let field = if spec.list {
            let element = leaf("element", spec.kind)?;
            let list = Type::group_type_builder("list")
                .with_repetition(Repetition::REPEATED)
                .with_fields(vec![Arc::new(element)])
                .build()?;
            Type::group_type_builder(&spec.name)
                .with_repetition(repetition)
                .with_logical_type(Some(LogicalType::List))
                .with_fields(vec![Arc::new(list)])
                .build()?
        } else {
            leaf(&spec.name, spec.kind)?
        };
        fields.push(Arc::new(field));
    }
    Type::group_type_builder("game").with_fields(fields).build()
}

/// An optional leaf column.
fn leaf(name: &str, kind: Kind) -> parquet::errors::Result<Type> {
    let (physical, logical) = match kind {
        Kind::Int => (Physical::INT64, None),
        Kind::Real => (Physical::DOUBLE, None),
        Kind::Text => (Physical::BYTE_ARRAY, Some(LogicalType::String)),
        Kind::Bool => (Physical::BOOLEAN, None),
    };
    Type::primitive_type_builder(name, physical)
        .with_repetition(Repetition::OPTIONAL)
        .with_logical_type(logical)
        .build()
}

/// Refuses what Parquet cannot be written to: standard output, and
/// column names that repeat (DuckDB reads names without case).
///
/// # Errors
/// A usage error naming `option`.
pub fn check(path: Option<&Path>, specs: &[Spec], option: &str) -> anyhow::Result<()> {
    if path.is_none_or(|p| p.as_os_str() == "-") {
        anyhow::bail!(
            "{option} parquet needs an output file (-o FILE): Parquet is not written to a pipe"
        );
    }
    for (i, spec) in specs.iter().enumerate() {
        match specs[..i]
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(&spec.name))
        {
            Some(s) if s.name == spec.name => {
                anyhow::bail!("the Parquet column `{}` is named twice", spec.name)
            }
            Some(s) => anyhow::bail!(
                "the Parquet columns `{}` and `{}` differ only in case \
                 (DuckDB reads names without case)",
                s.name,
                spec.name
            ),
            None => {}
        }
    }
    Ok(())
}

impl<'o> File<'o> {
    /// Starts a file with columns `specs` on `out`; pages are compressed
    /// with zstd.
    ///
    /// # Errors
    /// The schema cannot be made (a column name Parquet refuses).
    pub fn create(out: &'o mut Output, specs: &[Spec]) -> anyhow::Result<File<'o>> {
        let schema = schema(specs).context("the Parquet schema")?;
        let properties = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::default()))
            .set_created_by(format!("pgnkit {}", env!("CARGO_PKG_VERSION")))
            .build();
        let writer = SerializedFileWriter::new(out, Arc::new(schema), Arc::new(properties))
            .context("writing the output")?;
        let group = std::env::var(ROW_GROUP_ROWS_VAR)
            .ok()
            .and_then(|v| v.parse().ok())
            .filter(|&n: &usize| n > 0)
            .unwrap_or(ROW_GROUP_ROWS);
        Ok(File { writer, group })
    }

    /// Writes the first rows of `rows` as row groups of [`ROW_GROUP_ROWS`]
    /// rows (and the rest as a last one when `all`), and takes them off.
    ///
    /// # Errors
    /// A failure to write.
    pub fn write(&mut self, rows: &mut Rows, all: bool) -> io::Result<()> {
        while rows.rows >= self.group || (all && rows.rows > 0) {
            let group = rows.take_front(self.group);
            self.row_group(group).map_err(io::Error::other)?;
        }
        Ok(())
    }

    fn row_group(&mut self, rows: Rows) -> parquet::errors::Result<()> {
        let mut group = self.writer.next_row_group()?;
        for column in rows.columns {
            let Some(mut writer) = group.next_column()? else {
                break;
            };
            let def = Some(&column.def[..]);
            // Only lists have repetition levels.
            let rep = (!column.rep.is_empty()).then_some(&column.rep[..]);
            match column.values {
                Values::Int(v) => writer.typed::<Int64Type>().write_batch(&v, def, rep)?,
                Values::Real(v) => writer.typed::<DoubleType>().write_batch(&v, def, rep)?,
                Values::Text(text, ends) => {
                    // Slices of one shared buffer: no allocation per string.
                    let text = bytes::Bytes::from(text);
                    let mut start = 0;
                    let values: Vec<ByteArray> = ends
                        .iter()
                        .map(|&end| {
                            let value = ByteArray::from(text.slice(start..end));
                            start = end;
                            value
                        })
                        .collect();
                    writer
                        .typed::<ByteArrayType>()
                        .write_batch(&values, def, rep)?
                }
                Values::Bool(v) => writer.typed::<BoolType>().write_batch(&v, def, rep)?,
            };
            writer.close()?;
        }
        group.close()?;
        Ok(())
    }

    /// Writes the rows left and the file's footer.
    ///
    /// # Errors
    /// A failure to write.
    pub fn close(mut self, mut rows: Rows) -> anyhow::Result<()> {
        self.write(&mut rows, true).context("writing the output")?;
        self.writer.close().context("writing the output")?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs() -> Vec<Spec> {
        vec![Spec::one("n", Kind::Int), Spec::list("xs", Kind::Text)]
    }

    /// Row `i` holds `i` and a list of `i % 3` items, the second null;
    /// row 4 holds a null and a null list.
    fn rows(range: std::ops::Range<usize>, specs: &[Spec]) -> Rows {
        let mut rows = Rows::default();
        for i in range {
            let mut row = rows.row(specs);
            if i == 4 {
                row.value(Value::Null).list(None::<Vec<Value<'_>>>);
                continue;
            }
            row.value(Value::Int(i as i64));
            let items = (0..i % 3).map(|k| {
                if k == 1 {
                    Value::Null
                } else {
                    Value::Text("x")
                }
            });
            row.list(Some(items));
        }
        rows
    }

    #[test]
    fn rows_split_where_they_were_joined() {
        let specs = specs();
        for cut in 0..=9 {
            let mut all = rows(0..9, &specs);
            let front = all.take_front(cut);
            if cut > 0 {
                assert_eq!(front, rows(0..cut, &specs), "{cut}");
            }
            assert_eq!(front.rows, cut);
            let back = rows(cut..9, &specs);
            assert_eq!(all.rows, back.rows, "{cut}");
            assert_eq!(all.columns.len(), 2);
            let mut joined = front;
            joined.merge(all);
            assert_eq!(joined, rows(0..9, &specs), "{cut}");
        }
    }

    #[test]
    fn levels_of_lists_and_nulls() {
        let specs = specs();
        let rows = rows(0..6, &specs);
        // Rows 0 (empty), 1 [x], 2 [x, null], 3 (empty), 4 (null list), 5 [x, null].
        assert_eq!(rows.columns[1].def, [1, 3, 3, 2, 1, 0, 3, 2]);
        assert_eq!(rows.columns[1].rep, [0, 0, 0, 1, 0, 0, 0, 1]);
        assert_eq!(rows.columns[0].def, [1, 1, 1, 1, 0, 1]);
        assert_eq!(rows.columns[0].values, Values::Int(vec![0, 1, 2, 3, 5]));
    }
}
