//! Headless Chromium for end-to-end tests, driven through Debian's chromedriver.
//!
//! Each [`Browser`] starts its own chromedriver on a free loopback port and one Chromium
//! session with a fresh profile. The flags keep Chromium off the network: this machine has none,
//! and background connections would only slow it down.
//!
//! Every command is bounded, so a stuck page fails its test with a message instead of holding
//! the suite: the session's page-load and script timeouts make chromedriver give up on a
//! navigation or a script, and [`COMMAND_TIMEOUT`] gives up on chromedriver itself.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::wd::TimeoutConfiguration;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

/// How long chromedriver may wait for a page to load (chromedriver's own default is 300 s).
pub const PAGE_LOAD_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a script run in the page may take.
pub const SCRIPT_TIMEOUT: Duration = Duration::from_secs(30);
/// How long any one WebDriver command may take end to end, in case chromedriver itself hangs.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(90);

pub struct Browser {
    rt: tokio::runtime::Runtime,
    pub client: Client,
    driver: Child,
    _profile: tempfile::TempDir,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Browser {
    /// Starts Chromium with a window of `width` × `height` CSS pixels.
    pub fn start(width: u32, height: u32) -> Browser {
        let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists());
        let driver_path = ["/usr/bin/chromedriver"]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists());
        let (Some(chromium), Some(driver_path)) = (chromium, driver_path) else {
            panic!("browser tests need Debian's chromium and chromium-driver; run `bash tests/run.sh`, which installs them");
        };
        let port = free_port();
        let driver = Command::new(driver_path)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let profile = tempfile::tempdir().unwrap();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let caps = json!({
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--allow-file-access-from-files",
                    format!("--user-data-dir={}", profile.path().display()),
                    format!("--window-size={width},{height}"),
                ]
            }
        });
        let caps: serde_json::Map<String, Value> = caps.as_object().unwrap().clone();
        let deadline = Instant::now() + Duration::from_secs(30);
        let driver_url = format!("http://127.0.0.1:{port}");
        let client = rt.block_on(async {
            loop {
                let conn = hyper_util::client::legacy::connect::HttpConnector::new();
                let mut builder = ClientBuilder::new(conn);
                builder.capabilities(caps.clone());
                let session = builder.connect(&driver_url);
                match tokio::time::timeout(COMMAND_TIMEOUT, session).await {
                    Ok(Ok(c)) => break c,
                    Ok(Err(_)) if Instant::now() < deadline => {
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                    Ok(Err(e)) => panic!("cannot start a Chromium session: {e}"),
                    Err(_) => panic!(
                        "cannot start a Chromium session: no answer from chromedriver in {COMMAND_TIMEOUT:?}"
                    ),
                }
            }
        });
        let timeouts = TimeoutConfiguration::new(
            Some(SCRIPT_TIMEOUT),
            Some(PAGE_LOAD_TIMEOUT),
            Some(Duration::ZERO),
        );
        let b = Browser {
            rt,
            client,
            driver,
            _profile: profile,
        };
        b.run(
            "set the session's timeouts",
            b.client.update_timeouts(timeouts),
        );
        b.resize(width, height);
        b
    }

    /// Runs one WebDriver command (the timer is made inside the runtime, which it needs);
    /// panics naming `what` if it fails or takes longer than
    /// [`COMMAND_TIMEOUT`].
    fn run<T, E: std::fmt::Display>(
        &self,
        what: &str,
        command: impl std::future::Future<Output = Result<T, E>>,
    ) -> T {
        match self
            .rt
            .block_on(async { tokio::time::timeout(COMMAND_TIMEOUT, command).await })
        {
            Ok(Ok(v)) => v,
            Ok(Err(e)) => panic!("{what}: {e}"),
            Err(_) => panic!("{what}: no answer from chromedriver in {COMMAND_TIMEOUT:?}"),
        }
    }

    /// Like [`Browser::run`] for commands whose failure does not matter (still bounded).
    fn run_ignoring_errors<T, E>(&self, command: impl std::future::Future<Output = Result<T, E>>) {
        let _ = self
            .rt
            .block_on(async { tokio::time::timeout(COMMAND_TIMEOUT, command).await });
    }

    /// Sets how long chromedriver waits for a page to load (the test of the bound itself
    /// shortens it).
    pub fn set_page_load_timeout(&self, timeout: Duration) {
        let t = TimeoutConfiguration::new(None, Some(timeout), None);
        self.run("set the page-load timeout", self.client.update_timeouts(t));
    }

    /// Sets how long chromedriver lets a script run in the page.
    pub fn set_script_timeout(&self, timeout: Duration) {
        let t = TimeoutConfiguration::new(Some(timeout), None, None);
        self.run("set the script timeout", self.client.update_timeouts(t));
    }

    pub fn resize(&self, width: u32, height: u32) {
        // the window is bigger than the viewport by the browser's frame; size the viewport itself
        self.run_ignoring_errors(self.client.set_window_size(width, height));
        let inner: Value = self.js("return [window.innerWidth, window.innerHeight];");
        if let (Some(w), Some(h)) = (inner[0].as_u64(), inner[1].as_u64()) {
            let (dw, dh) = (width as i64 - w as i64, height as i64 - h as i64);
            if dw != 0 || dh != 0 {
                self.run_ignoring_errors(
                    self.client
                        .set_window_size((width as i64 + dw) as u32, (height as i64 + dh) as u32),
                );
            }
        }
    }

    pub fn goto(&self, url: &str) {
        // a page that does not load in PAGE_LOAD_TIMEOUT is chromedriver's timeout error here
        self.run(&format!("goto {url}"), self.client.goto(url));
    }

    pub fn url(&self) -> String {
        self.run("current url", self.client.current_url())
            .to_string()
    }

    /// Runs JavaScript in the page and returns its result.
    pub fn js(&self, script: &str) -> Value {
        self.run(
            &format!("script failed\n{script}\n"),
            self.client.execute(script, vec![]),
        )
    }

    pub fn js_with(&self, script: &str, args: Vec<Value>) -> Value {
        self.run(
            &format!("script failed\n{script}\n"),
            self.client.execute(script, args),
        )
    }

    /// Runs axe-core (installed from npm by the test command) on the open page and returns its
    /// serious and critical violations, each as `id (impact): first targets`.
    pub fn axe_serious_violations(&self) -> Value {
        let axe = super::repo().join("tests/browser/node_modules/axe-core/axe.min.js");
        let src = std::fs::read_to_string(&axe).unwrap_or_else(|_| {
            panic!(
                "{} is missing: run `bash tests/run.sh` (it installs axe-core from npm)",
                axe.display()
            )
        });
        self.js(&format!("{src}\n;return true;"));
        // axe-core's first part runs at once, and on the print view (every chapter on one
        // page) it took more than SCRIPT_TIMEOUT on a machine busy with a build: the bound
        // is for pages that hang, not for this work (COMMAND_TIMEOUT still bounds it)
        self.set_script_timeout(COMMAND_TIMEOUT - Duration::from_secs(10));
        self.js("window.__axe = null; axe.run(document, {resultTypes: ['violations']}).then(function (r) { window.__axe = r.violations.filter(function (v) { return v.impact === 'serious' || v.impact === 'critical'; }).map(function (v) { return v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3).map(function (n) { return n.target.join(' '); }).join(' | '); }); });");
        let found = self.wait_until("return window.__axe", 120, "axe-core");
        self.set_script_timeout(SCRIPT_TIMEOUT);
        found
    }

    /// Types `query` into the page's search box and waits for its results; returns the titles
    /// shown.
    pub fn search(&self, query: &str) -> Vec<String> {
        self.js("var i = document.getElementById('search-input'); i.value = ''; i.focus();");
        self.type_into("#search-input", query);
        self.wait_until(
            &format!(
                "var r = document.getElementById('search-results'); return !r.hidden && r.getAttribute('data-query') === {} && !r.hasAttribute('aria-busy');",
                Value::String(query.to_string())
            ),
            20,
            &format!("results for {query}"),
        );
        self.js("return Array.from(document.querySelectorAll('#search-results .search-title')).map(e => e.textContent)")
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    }

    /// Waits until `script` returns a truthy value, or panics with `what` after `secs`.
    pub fn wait_until(&self, script: &str, secs: u64, what: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let v = self.js(script);
            let truthy =
                !(v.is_null() || v == Value::Bool(false) || v == json!(0) || v == json!(""));
            if truthy {
                return v;
            }
            if Instant::now() > deadline {
                panic!("timed out waiting for {what} (script: {script})");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn click(&self, css: &str) {
        self.run(&format!("click {css}"), async {
            self.client.find(Locator::Css(css)).await?.click().await
        });
    }

    pub fn type_into(&self, css: &str, text: &str) {
        self.run(&format!("type into {css}"), async {
            self.client
                .find(Locator::Css(css))
                .await?
                .send_keys(text)
                .await
        });
    }

    /// Sends keys to whatever has focus (e.g. "\u{E007}" is Enter, "\u{E004}" Tab).
    pub fn keys(&self, text: &str) {
        self.run("keys", async {
            self.client.active_element().await?.send_keys(text).await
        });
    }

    /// Moves the mouse pointer over the element, as a reader's mouse would (real pointer
    /// events: `mouseover`, `:hover`).
    pub fn hover(&self, css: &str) {
        use fantoccini::actions::{InputSource, MouseActions, PointerAction};
        self.run(&format!("hover {css}"), async {
            let el = self.client.find(Locator::Css(css)).await?;
            let moves = MouseActions::new("mouse".into()).then(PointerAction::MoveToElement {
                element: el,
                duration: None,
                x: 0.0,
                y: 0.0,
            });
            self.client.perform_actions(moves).await
        });
    }

    /// Runs a Chrome DevTools Protocol command (chromedriver's `goog/cdp/execute`): what
    /// WebDriver has no command for, such as emulating print media.
    pub fn cdp(&self, cmd: &str, params: Value) -> Value {
        self.rt
            .block_on(self.client.issue_cmd(Cdp(cmd.to_string(), params)))
            .unwrap_or_else(|e| panic!("CDP {cmd}: {e}"))
    }

    /// Taps the element with a finger (a WebDriver pointer of type "touch": real touch
    /// events, then the mouse events and click the browser makes of a tap).
    pub fn tap(&self, css: &str) {
        use fantoccini::actions::{InputSource, PointerAction, TouchActions};
        self.rt
            .block_on(async {
                let el = self.client.find(Locator::Css(css)).await?;
                let tap = TouchActions::new("finger".into())
                    .then(PointerAction::MoveToElement {
                        element: el,
                        duration: None,
                        x: 0.0,
                        y: 0.0,
                    })
                    .then(PointerAction::Down { button: 0 })
                    .then(PointerAction::Up { button: 0 });
                self.client.perform_actions(tap).await
            })
            .unwrap_or_else(|e| panic!("tap {css}: {e}"));
    }

    pub fn screenshot(&self, path: &std::path::Path) {
        let png = self.run("screenshot", self.client.screenshot());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let client = self.client.clone();
        // bounded too: a test that already failed must not hang in its clean-up
        let _ = self
            .rt
            .block_on(async { tokio::time::timeout(COMMAND_TIMEOUT, client.close()).await });
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// chromedriver's endpoint for Chrome DevTools Protocol commands.
#[derive(Debug)]
struct Cdp(String, Value);

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (::http::Method, Option<String>) {
        let body = json!({"cmd": self.0, "params": self.1});
        (::http::Method::POST, Some(body.to_string()))
    }
}
