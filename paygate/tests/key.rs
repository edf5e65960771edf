//! The provider does not start without a merchant key of its own: not without one, and not with
//! the published development key, unless the development switch says so.

use std::process::{Command, Output};

fn paygate(key: Option<&str>, development: bool) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_paygate"));
    command.env_remove("PAYGATE_KEY").env_remove(paygate::DEVELOPMENT_SWITCH).env("PAYGATE_ADDR", "127.0.0.1:0");
    if let Some(key) = key {
        command.env("PAYGATE_KEY", key);
    }
    if development {
        command.env(paygate::DEVELOPMENT_SWITCH, "1");
    }
    // A process that would start serves until stopped: it is killed after a second.
    let mut child = command.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().unwrap();
    for _ in 0..50 {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = child.kill();
    child.wait_with_output().unwrap()
}

#[test]
fn no_key_no_provider() {
    let output = paygate(None, false);
    assert!(!output.status.success());
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains("PAYGATE_KEY is not set"), "{error}");
}

#[test]
fn the_published_key_is_refused() {
    let output = paygate(Some(paygate::DEVELOPMENT_KEY), false);
    assert!(!output.status.success());
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains("published development key"), "{error}");
}

#[test]
fn a_key_of_its_own_or_the_switch_starts_it() {
    for (key, development) in [(Some("a random key of this provider's own"), false), (None, true)] {
        let output = paygate(key, development);
        let log = String::from_utf8_lossy(&output.stdout);
        assert!(log.contains("paygate listening"), "{log}{}", String::from_utf8_lossy(&output.stderr));
    }
}
