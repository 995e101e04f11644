//! A headless Chromium driven over its DevTools protocol, for the page tests: open a
//! page, read it, click and type as a person would (real mouse and keyboard events),
//! take screenshots and PDFs, run axe-core's accessibility check in the page, and
//! collect every console error and uncaught exception.
//!
//! The browser is Debian's `chromium`, provisioned by `deploy/browser.sh` (which
//! `deploy/test.sh` runs): `YANIV_CHROMIUM` names it and `YANIV_AXE_JS` the axe-core
//! script. Without them the tests fail and say how to get them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64ct::{Base64, Encoding};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::{mpsc, oneshot};
use tokio_tungstenite::tungstenite::Message;

/// How long one protocol command may take.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(30);

type Pending = Arc<Mutex<HashMap<u64, oneshot::Sender<Value>>>>;

/// A running browser with one tab. Dropping it ends the browser.
#[derive(Debug)]
pub struct Browser {
    child: Child,
    outgoing: mpsc::UnboundedSender<Message>,
    pending: Pending,
    next_id: AtomicU64,
    session: String,
    /// Console errors and uncaught exceptions, as they came.
    errors: Arc<Mutex<Vec<String>>>,
    /// Every protocol event of the tab (method, params), for `wait_for_new_page` and
    /// [`Browser::dialogs`].
    events: Arc<Mutex<Vec<(String, Value)>>>,
    _profile: TempDir,
}

/// A directory removed when dropped.
#[derive(Debug)]
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Where the page tests keep their screenshots and PDFs: `target/screenshots/`.
pub fn screenshots_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/screenshots");
    std::fs::create_dir_all(&dir).expect("create target/screenshots");
    dir
}

fn setting(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| {
        panic!(
            "{name} is not set: the page tests need Chromium and axe-core. Run the suite with \
             deploy/test.sh, or `eval \"$(bash deploy/browser.sh)\"` first"
        )
    })
}

impl Browser {
    /// Starts a headless browser with one tab of `width` x `height` CSS pixels.
    pub async fn launch(width: u32, height: u32) -> Browser {
        let chromium = setting("YANIV_CHROMIUM");
        let profile =
            TempDir(std::env::temp_dir().join(format!("yaniv-chromium-{}", crate::random_hex(8))));
        let mut child = Command::new(&chromium)
            .args([
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--remote-debugging-port=0",
                &format!("--window-size={width},{height}"),
                &format!("--user-data-dir={}", profile.0.display()),
                "about:blank",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {chromium}: {e}"));
        let stderr = child.stderr.take().expect("chromium's stderr");
        let mut lines = BufReader::new(stderr).lines();
        let endpoint = tokio::time::timeout(Duration::from_secs(30), async {
            while let Ok(Some(line)) = lines.next_line().await {
                if let Some(at) = line.find("ws://") {
                    return line[at..].trim().to_owned();
                }
            }
            panic!("chromium ended without a DevTools endpoint");
        })
        .await
        .expect("chromium printed no DevTools endpoint within 30 s");
        // Keep draining its stderr so that it never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });

        let (socket, _) = tokio_tungstenite::connect_async(endpoint.as_str())
            .await
            .expect("connect to chromium's DevTools");
        let (mut sink, mut stream) = socket.split();
        let (outgoing, mut queue) = mpsc::unbounded_channel::<Message>();
        tokio::spawn(async move {
            while let Some(message) = queue.recv().await {
                if sink.send(message).await.is_err() {
                    break;
                }
            }
        });
        let pending: Pending = Arc::default();
        let errors: Arc<Mutex<Vec<String>>> = Arc::default();
        let events: Arc<Mutex<Vec<(String, Value)>>> = Arc::default();
        {
            let (pending, errors, events) = (pending.clone(), errors.clone(), events.clone());
            let answer = outgoing.clone();
            tokio::spawn(async move {
                // Ids of the answers to dialogs, apart from the commands' ids (the
                // protocol's ids are 32-bit integers).
                let mut dialog_id = 1u64 << 30;
                while let Some(Ok(message)) = stream.next().await {
                    let Message::Text(text) = message else {
                        continue;
                    };
                    let Ok(value) = serde_json::from_str::<Value>(text.as_str()) else {
                        continue;
                    };
                    if let Some(id) = value["id"].as_u64() {
                        if let Some(reply) = pending.lock().unwrap().remove(&id) {
                            let _ = reply.send(value);
                        }
                        continue;
                    }
                    let method = value["method"].as_str().unwrap_or_default().to_owned();
                    let params = value["params"].clone();
                    // A confirm() or alert() is accepted, as a person who means the
                    // click would; the test sees its message among the events.
                    if method == "Page.javascriptDialogOpening" {
                        dialog_id += 1;
                        let accept = json!({"id": dialog_id, "sessionId": value["sessionId"],
                            "method": "Page.handleJavaScriptDialog", "params": {"accept": true}});
                        let _ = answer.send(Message::text(accept.to_string()));
                    }
                    if let Some(error) = console_error(&method, &params) {
                        errors.lock().unwrap().push(error);
                    }
                    events.lock().unwrap().push((method, params));
                }
            });
        }
        let mut browser = Browser {
            child,
            outgoing,
            pending,
            next_id: AtomicU64::new(1),
            session: String::new(),
            errors,
            events,
            _profile: profile,
        };
        let target = browser
            .call(None, "Target.createTarget", json!({"url": "about:blank"}))
            .await;
        let target_id = target["targetId"].as_str().expect("a target").to_owned();
        let attached = browser
            .call(
                None,
                "Target.attachToTarget",
                json!({"targetId": target_id, "flatten": true}),
            )
            .await;
        browser.session = attached["sessionId"]
            .as_str()
            .expect("a session")
            .to_owned();
        for domain in ["Page.enable", "Runtime.enable", "Log.enable"] {
            browser.send(domain, json!({})).await;
        }
        browser
            .send(
                "Emulation.setDeviceMetricsOverride",
                json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600}),
            )
            .await;
        browser
    }

    async fn call(&self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.try_call(session, method, params)
            .await
            .unwrap_or_else(|error| panic!("{method} failed: {error}"))
    }

    /// [`Browser::call`], the browser's refusal as an error.
    async fn try_call(
        &self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, Value> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        let (reply, answer) = oneshot::channel();
        self.pending.lock().unwrap().insert(id, reply);
        self.outgoing
            .send(Message::text(message.to_string()))
            .expect("the DevTools connection is open");
        let answer = tokio::time::timeout(COMMAND_TIMEOUT, answer)
            .await
            .unwrap_or_else(|_| panic!("{method}: no answer within {COMMAND_TIMEOUT:?}"))
            .expect("the DevTools connection closed");
        if let Some(error) = answer.get("error") {
            return Err(error.clone());
        }
        Ok(answer["result"].clone())
    }

    /// Sends `method` to the tab; its result.
    pub async fn send(&self, method: &str, params: Value) -> Value {
        self.call(Some(&self.session.clone()), method, params).await
    }

    /// Opens `url` and waits for its load event.
    pub async fn goto(&self, url: &str) {
        eprintln!("[browser] open {url}");
        self.events.lock().unwrap().clear();
        let navigated = self.send("Page.navigate", json!({"url": url})).await;
        if let Some(error) = navigated.get("errorText") {
            panic!("opening {url}: {error}");
        }
        self.wait_for_new_page(Duration::from_secs(20)).await;
    }

    /// Waits for the load event of a document navigated to from now on: the previous
    /// page's own load event may still arrive (a page that had just sent the browser
    /// on), and must not count.
    async fn wait_for_new_page(&self, timeout: Duration) {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            {
                let events = self.events.lock().unwrap();
                let navigated = events.iter().position(|(m, params)| {
                    m == "Page.frameNavigated" && params["frame"]["parentId"].is_null()
                });
                if let Some(at) = navigated
                    && events[at..].iter().any(|(m, _)| m == "Page.loadEventFired")
                {
                    return;
                }
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "no new page loaded within {timeout:?}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The value of `expression` in the page (a promise is awaited).
    pub async fn eval(&self, expression: &str) -> Value {
        let result = self
            .send(
                "Runtime.evaluate",
                json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
            )
            .await;
        if let Some(exception) = result.get("exceptionDetails") {
            panic!("{expression}: {exception}");
        }
        result["result"]["value"].clone()
    }

    /// Waits until `expression` is true in the page; how long it took.
    pub async fn wait_until(&self, expression: &str, timeout: Duration) -> Duration {
        let start = tokio::time::Instant::now();
        let session = self.session.clone();
        let params = json!({"expression": expression, "returnByValue": true, "awaitPromise": true});
        loop {
            // A page that is navigating answers "Inspected target navigated or closed":
            // not yet, as a false would be.
            let answer = self
                .try_call(Some(&session), "Runtime.evaluate", params.clone())
                .await
                .unwrap_or_default();
            if answer["result"]["value"] == Value::Bool(true) {
                return start.elapsed();
            }
            assert!(
                start.elapsed() < timeout,
                "`{expression}` still false after {timeout:?}"
            );
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    /// The page's visible text.
    pub async fn text(&self) -> String {
        self.eval("document.body.innerText")
            .await
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// Clicks the middle of the first element `selector` matches, as a mouse would.
    pub async fn click(&self, selector: &str) {
        let query = serde_json::to_string(selector).expect("a selector");
        // The field being typed in is left first, and the element measured once the
        // layout has settled (two frames): headless Chromium scrolls the page when the
        // focus leaves a field under a pressed button, which moved the target between
        // press and release.
        let center = self
            .eval(&format!(
                "(async () => {{ const e = document.querySelector({query}); if (!e) return null; \
                 if (document.activeElement && document.activeElement !== e) document.activeElement.blur(); \
                 e.scrollIntoView({{block: 'center'}}); \
                 await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))); \
                 const r = e.getBoundingClientRect(); \
                 return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
            ))
            .await;
        let (Some(x), Some(y)) = (center[0].as_f64(), center[1].as_f64()) else {
            panic!("nothing matches {selector}");
        };
        // As a mouse does: moved over the element, pressed, released.
        self.send(
            "Input.dispatchMouseEvent",
            json!({"type": "mouseMoved", "x": x, "y": y, "button": "none", "buttons": 0}),
        )
        .await;
        for (kind, buttons) in [("mousePressed", 1), ("mouseReleased", 0)] {
            self.send(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1}),
            )
            .await;
        }
    }

    /// Logs in on the desk's log-in page, where a page that needs an account sends
    /// the browser, as `username` (registered by `TestApp::new_player`, so its password
    /// is `password-of-<username>`), and waits to be back on the page at `back` (a
    /// path), loaded.
    pub async fn log_in(&self, username: &str, back: &str) {
        let wait = Duration::from_secs(15);
        self.wait_until("location.pathname === '/desk/login'", wait)
            .await;
        self.type_into("#username", username).await;
        self.type_into("#password", &format!("password-of-{username}"))
            .await;
        self.click("form[data-desk-login] button").await;
        let back = serde_json::to_string(back).expect("a path");
        self.wait_until(
            &format!("location.pathname === {back} && document.readyState === 'complete'"),
            wait,
        )
        .await;
    }

    /// On the game client's table page, plays the turn `action` (a `play` chosen from
    /// the player's `view`): clicks the thrown cards in the hand, each of which the page
    /// must mark as part of a legal throw, then the button of its draw. Cards are found
    /// by position, since two may share a code (two jokers).
    pub async fn play_turn(&self, view: &Value, action: &Value) {
        let throw: Vec<String> = serde_json::from_value(action["throw"].clone()).expect("a throw");
        let hand: Vec<String> = serde_json::from_value(view["hand"].clone()).expect("a hand");
        let mut used = Vec::new();
        for card in &throw {
            let index = (0..hand.len())
                .find(|&i| hand[i] == *card && !used.contains(&i))
                .expect("the card is in the hand");
            used.push(index);
            let button = format!("[data-play-hand] button[data-index='{index}']");
            let marked = self
                .eval(&format!(
                    "document.querySelector(\"{button}\").classList.contains('playable')"
                ))
                .await;
            assert_eq!(marked, json!(true), "{card} is in a legal throw");
            self.click(&button).await;
        }
        match action["draw"].as_str() {
            Some(_) => self.click("button[data-action='throw-stock']").await,
            None => {
                let card = action["draw"]["discard"].as_str().expect("a card taken");
                self.click(&format!(
                    "button[data-action='throw-take'][data-take='{card}']"
                ))
                .await;
            }
        }
    }

    /// Chooses `path` in the file input `selector`, as a user picking the file does
    /// (the input's `change` event fires).
    pub async fn choose_file(&self, selector: &str, path: &std::path::Path) {
        let query = serde_json::to_string(selector).expect("a selector");
        let found = self
            .send(
                "Runtime.evaluate",
                json!({"expression": format!("document.querySelector({query})")}),
            )
            .await;
        let Some(object) = found["result"]["objectId"].as_str() else {
            panic!("nothing matches {selector}: {found}");
        };
        self.send(
            "DOM.setFileInputFiles",
            json!({"files": [path.display().to_string()], "objectId": object}),
        )
        .await;
    }

    /// Focuses `selector` (by clicking it) and types `text` into it. A click that did
    /// not give the field the focus (the page moved under the pointer between the
    /// measure and the press) is made again, as a person would, and said in the log.
    pub async fn type_into(&self, selector: &str, text: &str) {
        let query = serde_json::to_string(selector).expect("a selector");
        let focused = format!("document.activeElement === document.querySelector({query})");
        for attempt in 1..=3 {
            self.click(selector).await;
            if self.eval(&focused).await == json!(true) {
                break;
            }
            eprintln!("[browser] click {attempt} on {selector} did not focus it; again");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        self.send("Input.insertText", json!({"text": text})).await;
    }

    /// Presses Enter in the focused element, and waits for the page it leads to.
    pub async fn press_enter_and_wait(&self) {
        self.events.lock().unwrap().clear();
        for kind in ["keyDown", "keyUp"] {
            self.send(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "text": "\r"}),
            )
            .await;
        }
        self.wait_for_new_page(Duration::from_secs(20)).await;
    }

    /// A PNG of the whole page, written to `target/screenshots/NAME.png`; its path.
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        let shot = self
            .send(
                "Page.captureScreenshot",
                json!({"format": "png", "captureBeyondViewport": true}),
            )
            .await;
        let bytes =
            Base64::decode_vec(shot["data"].as_str().expect("PNG data")).expect("base64 PNG");
        let path = screenshots_dir().join(format!("{name}.png"));
        std::fs::write(&path, bytes).expect("write the screenshot");
        // A screenshot beyond the viewport lays the page out at its full height for a
        // moment; let the page settle back before anything else measures it.
        self.eval(
            "document.documentElement.getBoundingClientRect(); \
             new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))",
        )
        .await;
        path
    }

    /// The page printed to an A4 PDF (its print styles), written to
    /// `target/screenshots/NAME.pdf`; the PDF's bytes.
    pub async fn pdf(&self, name: &str) -> Vec<u8> {
        let printed = self
            .send(
                "Page.printToPDF",
                json!({"paperWidth": 8.27, "paperHeight": 11.69, "printBackground": false,
                       "preferCSSPageSize": true}),
            )
            .await;
        let bytes =
            Base64::decode_vec(printed["data"].as_str().expect("PDF data")).expect("base64 PDF");
        std::fs::write(screenshots_dir().join(format!("{name}.pdf")), &bytes)
            .expect("write the PDF");
        bytes
    }

    /// axe-core's serious and critical violations of the page (WCAG 2 A and AA), each
    /// as "rule: help (the elements)".
    pub async fn accessibility_violations(&self) -> Vec<String> {
        self.axe("v.impact === 'serious' || v.impact === 'critical'")
            .await
    }

    /// axe-core's findings of WCAG 2.1 A and AA of every impact, each with its impact.
    pub async fn every_accessibility_violation(&self) -> Vec<String> {
        self.axe("true").await
    }

    /// axe-core's findings of WCAG 2.1 A and AA that `keep` (a JavaScript condition on
    /// a violation `v`) keeps.
    async fn axe(&self, keep: &str) -> Vec<String> {
        let axe = std::fs::read_to_string(setting("YANIV_AXE_JS")).expect("read axe-core");
        self.eval(&format!("{axe}\n;true")).await;
        let found = self
            .eval(&format!(
                "axe.run(document, {{runOnly: {{type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}}}})\
                 .then(r => r.violations\
                   .filter(v => {keep})\
                   .map(v => v.impact + ' ' + v.id + ': ' + v.help + ' (' + v.nodes.map(n => n.target.join(' ')).join(', ') + ')'))"
            ))
            .await;
        found
            .as_array()
            .expect("axe's violations")
            .iter()
            .map(|v| v.as_str().unwrap_or_default().to_owned())
            .collect()
    }

    /// The messages of the dialogs (confirm, alert) the page opened since it loaded;
    /// each was accepted.
    pub fn dialogs(&self) -> Vec<String> {
        self.events
            .lock()
            .unwrap()
            .iter()
            .filter(|(method, _)| method == "Page.javascriptDialogOpening")
            .map(|(_, params)| params["message"].as_str().unwrap_or_default().to_owned())
            .collect()
    }

    /// What every page test asks of the page now open: a screenshot named `name` in
    /// `target/screenshots/`, no serious accessibility violation, no console error.
    pub async fn check_page(&self, name: &str) {
        self.screenshot(name).await;
        let violations = self.accessibility_violations().await;
        assert!(violations.is_empty(), "{name}: {violations:#?}");
        let errors = self.take_errors();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
    }

    /// The console errors and uncaught exceptions so far (and forgets them).
    pub fn take_errors(&self) -> Vec<String> {
        std::mem::take(&mut *self.errors.lock().unwrap())
    }
}

/// A console error or an uncaught exception, from a protocol event.
fn console_error(method: &str, params: &Value) -> Option<String> {
    match method {
        "Runtime.consoleAPICalled" if params["type"] == "error" => Some(format!(
            "console.error: {}",
            params["args"]
                .as_array()
                .map(|args| args
                    .iter()
                    .map(|a| a["value"].to_string())
                    .collect::<Vec<_>>()
                    .join(" "))
                .unwrap_or_default()
        )),
        "Runtime.exceptionThrown" => Some(format!(
            "exception: {}",
            params["exceptionDetails"]["exception"]["description"]
                .as_str()
                .or(params["exceptionDetails"]["text"].as_str())
                .unwrap_or_default()
        )),
        "Log.entryAdded" if params["entry"]["level"] == "error" => Some(format!(
            "log: {} {}",
            params["entry"]["text"].as_str().unwrap_or_default(),
            params["entry"]["url"].as_str().unwrap_or_default()
        )),
        _ => None,
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
    }
}
