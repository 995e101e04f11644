//! A client generated from the checked-in OpenAPI document works against the real
//! server: `deploy/client-test.sh` generates it with openapi-python-client, checks its
//! models and every example of the document, plays a game (and checks its live stream
//! against the document) and a tournament's first draw through it
//! (`tests/client/check_client.py`).

use yaniv_e2e_tests::clients::run_client_script;
use yaniv_e2e_tests::spawn_app;

#[tokio::test]
async fn a_generated_python_client_plays_a_game() {
    let app = spawn_app().await;
    run_client_script(&app, "client-test.sh").await;
}
