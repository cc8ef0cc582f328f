//! Diagnostics: schema mistakes located by byte span, rendered as `path:line:column:`
//! messages that show the offending line, collected so one build reports them all.

use crate::model::Span;

/// One mistake in a schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Where it is in the schema file.
    pub span: Span,
    /// What is wrong, in words.
    pub message: String,
    /// A suggestion, if there is one.
    pub help: Option<String>,
}

/// Every mistake found so far.
///
/// TOML syntax errors are kept apart: when the file is not valid TOML, the tables read
/// from it are guesses of the parser's recovery, so mistakes found in them (a key "missing"
/// because it sits on the broken line, a key "unknown" because it landed in the wrong
/// table) would mislead. Then only the syntax errors are shown.
#[derive(Debug, Default)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
    syntax: Vec<Diagnostic>,
}

impl Diagnostics {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reports `message` at `span`.
    pub fn error(&mut self, span: Span, message: impl Into<String>) {
        self.list.push(Diagnostic { span, message: message.into(), help: None });
    }

    /// Reports `message` at `span` with a `help` line.
    pub fn error_with_help(&mut self, span: Span, message: impl Into<String>, help: impl Into<String>) {
        self.list.push(Diagnostic { span, message: message.into(), help: Some(help.into()) });
    }

    /// Reports a TOML syntax error: while there is one, it hides every other mistake.
    pub fn syntax_error(&mut self, span: Span, message: impl Into<String>, help: Option<String>) {
        self.syntax.push(Diagnostic { span, message: message.into(), help });
    }

    /// True when nothing was reported.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.list.is_empty() && self.syntax.is_empty()
    }

    /// The mistakes, in the order they were found (syntax errors first).
    #[cfg(test)]
    pub fn list(&self) -> Vec<Diagnostic> {
        self.syntax.iter().chain(&self.list).cloned().collect()
    }

    /// The mistakes to show, sorted by position in the file: the TOML syntax errors when
    /// there are any, else all of them.
    pub fn sorted(&self) -> Vec<&Diagnostic> {
        let shown = if self.syntax.is_empty() { &self.list } else { &self.syntax };
        let mut v: Vec<&Diagnostic> = shown.iter().collect();
        v.sort_by_key(|d| (d.span.start, d.span.end));
        v
    }
}

/// A schema file's text, for turning byte offsets into lines and columns.
#[derive(Debug)]
pub struct Source<'a> {
    /// The path as the user wrote it in the macro call.
    pub path: &'a str,
    /// The file's text.
    pub text: &'a str,
    line_starts: Vec<usize>,
}

impl<'a> Source<'a> {
    /// A source for `text` shown as `path`.
    pub fn new(path: &'a str, text: &'a str) -> Self {
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Source { path, text, line_starts }
    }

    /// The 1-based line and column (in characters) of byte `offset`.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&start| start <= offset).max(1);
        let start = self.line_starts.get(line - 1).copied().unwrap_or(0);
        let column = self.text.get(start..offset).map_or(0, |s| s.chars().count()) + 1;
        (line, column)
    }

    /// The text of 1-based `line`, without its line break.
    pub fn line_text(&self, line: usize) -> &'a str {
        let start = self.line_starts.get(line - 1).copied().unwrap_or(self.text.len());
        let end = self.line_starts.get(line).map_or(self.text.len(), |&e| e);
        self.text.get(start..end).unwrap_or("").trim_end_matches(['\n', '\r'])
    }

    /// The diagnostic as the compiler shows it:
    ///
    /// ```text
    /// schema/demo.toml:7:6: block id 8 is already MODULE_BLOCK's
    ///   |
    /// 7 | id = 8
    ///   |      ^
    ///   = help: ...
    /// ```
    pub fn render(&self, d: &Diagnostic) -> String {
        let (line, column) = self.line_column(d.span.start);
        let text = self.line_text(line);
        let gutter = line.to_string().len();
        // Underline the span's part on its first line (at least one caret).
        let line_chars = text.chars().count();
        let span_chars =
            self.text.get(d.span.clone()).map_or(1, |s| s.lines().next().unwrap_or("").chars().count());
        let width = span_chars.clamp(1, line_chars.saturating_sub(column - 1).max(1));
        let mut out = format!("{}:{line}:{column}: {}\n", self.path, d.message);
        out += &format!("{:gutter$} |\n", "");
        out += &format!("{line} | {text}\n");
        out += &format!("{:gutter$} | {:pad$}{}", "", "", "^".repeat(width), pad = column - 1);
        if let Some(help) = &d.help {
            out += &format!("\n{:gutter$} = help: {help}", "");
        }
        out
    }
}

/// The known word nearest to `word`, when it is near enough to be a likely typo.
pub fn nearest<'k>(word: &str, known: &[&'k str]) -> Option<&'k str> {
    known
        .iter()
        .map(|k| (strsim::damerau_levenshtein(word, k), *k))
        .filter(|(d, k)| *d <= (k.len().max(word.len()) / 3).max(1) + usize::from(k.len() > 6))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_count_from_one() {
        let s = Source::new("x.toml", "a = 1\n[b]\nid = 8\n");
        assert_eq!(s.line_column(0), (1, 1));
        assert_eq!(s.line_column(6), (2, 1));
        assert_eq!(s.line_column(15), (3, 6));
        assert_eq!(s.line_text(3), "id = 8");
    }

    #[test]
    fn render_shows_the_line_and_underlines_the_span() {
        let s = Source::new("schema/x.toml", "[blocks.A]\nid = 8\n");
        let d = Diagnostic {
            span: 16..17,
            message: "block id 8 is used twice".into(),
            help: Some("pick another".into()),
        };
        assert_eq!(
            s.render(&d),
            "schema/x.toml:2:6: block id 8 is used twice\n  |\n2 | id = 8\n  |      ^\n  = help: pick another"
        );
    }
}
