//! Writing the Prometheus text exposition format (version 0.0.4): one `# HELP` and
//! one `# TYPE` line per family, then its samples.

use std::fmt::Write;

/// One metric family being written.
#[derive(Debug)]
pub struct Family {
    name: &'static str,
    help: &'static str,
    kind: &'static str,
    samples: Vec<(String, String, f64)>,
}

impl Family {
    pub fn counter(name: &'static str, help: &'static str) -> Self {
        Self::new(name, help, "counter")
    }

    pub fn gauge(name: &'static str, help: &'static str) -> Self {
        Self::new(name, help, "gauge")
    }

    pub fn histogram(name: &'static str, help: &'static str) -> Self {
        Self::new(name, help, "histogram")
    }

    fn new(name: &'static str, help: &'static str, kind: &'static str) -> Self {
        Self {
            name,
            help,
            kind,
            samples: Vec::new(),
        }
    }

    /// A sample of this family; `suffix` is `_bucket`, `_sum`, `_count` for a
    /// histogram, empty otherwise; `labels` as [`labels`] writes them.
    pub fn sample(&mut self, suffix: &str, labels: &str, value: f64) {
        self.samples
            .push((suffix.to_owned(), labels.to_owned(), value));
    }

    /// One sample without labels.
    pub fn value(mut self, value: f64) -> Self {
        self.sample("", "", value);
        self
    }

    pub fn write(&self, out: &mut String) {
        let _ = writeln!(out, "# HELP {} {}", self.name, self.help);
        let _ = writeln!(out, "# TYPE {} {}", self.name, self.kind);
        for (suffix, labels, value) in &self.samples {
            let _ = writeln!(out, "{}{suffix}{labels} {value}", self.name);
        }
    }
}

/// `{a="1",b="2"}`, values escaped as the format requires.
pub fn labels(pairs: &[(&str, &str)]) -> String {
    let mut out = String::from("{");
    for (i, (name, value)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(name);
        out.push_str("=\"");
        for c in value.chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '"' => out.push_str("\\\""),
                '\n' => out.push_str("\\n"),
                c => out.push(c),
            }
        }
        out.push('"');
    }
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_values_are_escaped() {
        assert_eq!(labels(&[("a", "x\"y\\z\n")]), r#"{a="x\"y\\z\n"}"#);
        let mut out = String::new();
        Family::gauge("g", "A gauge.").value(2.5).write(&mut out);
        assert_eq!(out, "# HELP g A gauge.\n# TYPE g gauge\ng 2.5\n");
    }
}
