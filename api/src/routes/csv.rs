//! `text/csv` answers for spreadsheets: a read that offers one gives it for
//! `?format=csv` or for an `Accept` header that names `text/csv`, and JSON otherwise.
//! RFC 4180: comma-separated, CRLF line ends, a header row, a field quoted when it
//! holds a comma, a quote or a line end (its quotes doubled).

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
            if field.contains([',', '"', '\r', '\n']) {
                self.0.push('"');
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
