//! The checked-in OpenAPI document passes Redocly's recommended rules
//! (`deploy/openapi-lint.sh`, pinned `@redocly/cli`), the accepted findings aside.

use std::path::Path;
use std::process::Command;

#[test]
fn the_document_passes_redoclys_recommended_rules() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/openapi-lint.sh");
    let output = Command::new("bash")
        .arg(&script)
        .output()
        .expect("bash runs deploy/openapi-lint.sh");
    assert!(
        output.status.success(),
        "deploy/openapi-lint.sh failed ({}):\n--- stdout ---\n{}\n--- stderr ---\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
}
