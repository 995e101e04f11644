//! A TypeScript client generated from the checked-in OpenAPI document works against the
//! real server: `deploy/ts-client-test.sh` generates its types with openapi-typescript,
//! type-checks `tests/ts-client/check_client.ts` against them under `tsc --strict`, and
//! runs it: through openapi-fetch it plays games (following the table's live stream,
//! replaying a move, meeting refusals and a 304) and a tournament's first draw.

use std::time::Duration;

use yaniv_e2e_tests::clients::run_client_script;
use yaniv_e2e_tests::spawn_app_with;

#[tokio::test]
async fn a_generated_typescript_client_plays_a_game() {
    // The client reads two streams on to the heartbeat after their last message: one a
    // second, not the default 15.
    let app = spawn_app_with(|s| s.stream_heartbeat = Duration::from_secs(1), Vec::new()).await;
    run_client_script(&app, "ts-client-test.sh").await;
}
