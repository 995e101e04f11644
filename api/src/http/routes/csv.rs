//! `text/csv` answers for spreadsheets: a read that offers one gives it for
//! `?format=csv` or for an `Accept` header that names `text/csv`, and JSON otherwise.
//! RFC 4180: comma-separated, CRLF line ends, a header row, a field quoted when it
//! holds a comma, a quote or a line end (its quotes doubled). A text field that a
//! spreadsheet would read as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a
//! carriage return: a username like `-2-3` or `-A1`) is written as text: a `'` before
//! it, the whole field quoted. Plain numbers (`-12`, `-3.50`) stay numbers.

use actix_web::HttpRequest;
use actix_web::HttpResponse;
use actix_web::http::header;

use crate::error::ApiError;

pub const CONTENT_TYPE: &str = "text/csv; charset=utf-8";

/// Whether the client asked for CSV (`format` is the `?format=` parameter).
pub fn wanted(req: &HttpRequest, format: Option<&str>) -> Result<bool, ApiError> {
    match format {
        Some("csv") => return Ok(true),
        Some("json") => return Ok(false),
        Some(_) => return Err(ApiError::invalid_field("format", "must be csv or json")),
        None => {}
    }
    Ok(req
        .headers()
        .get(header::ACCEPT)
        .and_then(|accept| accept.to_str().ok())
        .is_some_and(|accept| {
            accept
                .split(',')
                .any(|item| item.trim().to_ascii_lowercase().starts_with("text/csv"))
        }))
}

/// A CSV document being written, row by row.
#[derive(Debug, Default)]
pub struct Csv(String);

impl Csv {
    /// A document whose first row names the columns.
    pub fn with_header(columns: &[&str]) -> Self {
        let mut csv = Self::default();
        csv.row(columns.iter().copied());
        csv
    }

    pub fn row<'a>(&mut self, fields: impl IntoIterator<Item = &'a str>) {
        for (i, field) in fields.into_iter().enumerate() {
            if i > 0 {
                self.0.push(',');
            }
            let formula =
                field.starts_with(['=', '+', '-', '@', '\t', '\r']) && !is_plain_number(field);
            if formula || field.contains([',', '"', '\r', '\n']) {
                self.0.push('"');
                if formula {
                    self.0.push('\'');
                }
                self.0.push_str(&field.replace('"', "\"\""));
                self.0.push('"');
            } else {
                self.0.push_str(field);
            }
        }
        self.0.push_str("\r\n");
    }

    /// The answer: the document, offered for download as `filename`.
    pub fn respond(self, filename: &str) -> HttpResponse {
        HttpResponse::Ok()
            .insert_header((header::CONTENT_TYPE, CONTENT_TYPE))
            .insert_header((
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{filename}\""),
            ))
            .body(self.0)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A number a spreadsheet reads as that number, nothing else: an optional minus,
/// digits, and optionally a point and more digits.
fn is_plain_number(field: &str) -> bool {
    let digits = field.strip_prefix('-').unwrap_or(field);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, "0"));
    !whole.is_empty()
        && !fraction.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.bytes().all(|b| b.is_ascii_digit())
}

/// Why a CSV document could not be read: the line (from 1) and what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    pub line: usize,
    pub message: &'static str,
}

/// Reads an RFC 4180 document (as spreadsheets export it: a UTF-8 byte order mark, LF
/// or CRLF line ends and a missing final line end are all accepted) into its records,
/// each with the line it starts on. Blank lines are skipped.
pub fn read(text: &str) -> Result<Vec<(usize, Vec<String>)>, ReadError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut records = Vec::new();
    let mut record: Vec<String> = Vec::new();
    let mut field = String::new();
    let mut line = 1;
    let mut start = 1;
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    // Whether the current field was quoted (and so is a value even when empty).
    let mut was_quoted = false;
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => {
                    quoted = false;
                    if !matches!(chars.peek(), None | Some(',' | '\r' | '\n')) {
                        return Err(ReadError {
                            line,
                            message: "a closing quote must end its field",
                        });
                    }
                }
                '\n' => {
                    line += 1;
                    field.push(c);
                }
                c => field.push(c),
            }
            continue;
        }
        match c {
            '"' if field.is_empty() && !was_quoted => {
                quoted = true;
                was_quoted = true;
            }
            '"' => {
                return Err(ReadError {
                    line,
                    message: "a quote inside an unquoted field",
                });
            }
            ',' => {
                record.push(std::mem::take(&mut field));
                was_quoted = false;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\r' | '\n' => {
                if !(record.is_empty() && field.is_empty() && !was_quoted) {
                    record.push(std::mem::take(&mut field));
                    records.push((start, std::mem::take(&mut record)));
                }
                was_quoted = false;
                line += 1;
                start = line;
            }
            c => field.push(c),
        }
    }
    if quoted {
        return Err(ReadError {
            line,
            message: "a quoted field is never closed",
        });
    }
    if !(record.is_empty() && field.is_empty() && !was_quoted) {
        record.push(field);
        records.push((start, record));
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<Vec<String>> {
        read(text)
            .expect("valid CSV")
            .into_iter()
            .map(|(_, r)| r)
            .collect()
    }

    #[test]
    fn what_spreadsheets_export_reads_back() {
        assert_eq!(
            rows("\u{feff}name,note\r\nann,plain\r\n\"bob, jr\",\"said \"\"hi\"\"\"\r\n"),
            [
                ["name", "note"],
                ["ann", "plain"],
                ["bob, jr", "said \"hi\""]
            ]
        );
        // LF only, no final line end, blank lines, an empty quoted field.
        assert_eq!(
            rows("a,b\n\nc,\"\"\n\"multi\nline\",d"),
            [["a", "b"], ["c", ""], ["multi\nline", "d"]]
        );
        assert_eq!(rows("only\n,\n"), [vec!["only"], vec!["", ""]]);
    }

    #[test]
    fn records_know_their_line_and_errors_name_it() {
        let lines: Vec<usize> = read("h\n\"a\nb\"\n\nc\n")
            .expect("valid CSV")
            .into_iter()
            .map(|(line, _)| line)
            .collect();
        assert_eq!(lines, [1, 2, 5]);
        assert_eq!(
            read("h\nab\"c\n"),
            Err(ReadError {
                line: 2,
                message: "a quote inside an unquoted field"
            })
        );
        assert_eq!(
            read("h\n\"open\n"),
            Err(ReadError {
                line: 3,
                message: "a quoted field is never closed"
            })
        );
        assert_eq!(
            read("\"a\"b\n"),
            Err(ReadError {
                line: 1,
                message: "a closing quote must end its field"
            })
        );
    }

    #[test]
    fn fields_are_quoted_only_when_they_must_be() {
        let mut csv = Csv::with_header(&["name", "note"]);
        csv.row(["ann", "plain"]);
        csv.row(["bob, jr", "said \"hi\""]);
        assert_eq!(
            csv.as_str(),
            "name,note\r\nann,plain\r\n\"bob, jr\",\"said \"\"hi\"\"\"\r\n"
        );
    }

    /// Issue #27: "CSV cells that start with =, +, - or @ are neutralised the way
    /// spreadsheets expect (usernames like -2-3 and -A1 appear raw today)".
    #[test]
    fn text_a_spreadsheet_would_compute_is_written_as_text() {
        let mut csv = Csv::default();
        csv.row(["-2-3", "-A1", "=1+1", "+33", "@SUM(A1)", "\tx", "a-b"]);
        assert_eq!(
            csv.as_str(),
            "\"'-2-3\",\"'-A1\",\"'=1+1\",\"'+33\",\"'@SUM(A1)\",\"'\tx\",a-b\r\n"
        );
        // Numbers stay numbers, negative ones and decimals included.
        let mut numbers = Csv::default();
        numbers.row(["-3.50", "-12", "0", "66.67"]);
        assert_eq!(numbers.as_str(), "-3.50,-12,0,66.67\r\n");
        // What is written reads back as the text it was, the mark aside.
        assert_eq!(rows(csv.as_str())[0][0], "'-2-3");
        for odd in ["-", "-.5", "-1.", "--1", "1e5"] {
            assert!(!is_plain_number(odd), "{odd}");
        }
    }
}
