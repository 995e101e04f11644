//! The replicated cluster is described twice: `deploy/cluster.sh` runs it on one
//! machine (and `deploy/cluster-test.sh` kills it), `deploy/compose.yaml` with
//! `deploy/compose/` runs it as containers, which these machines cannot. These tests
//! read both and check that they describe the same cluster: the same processes, the
//! same Patroni settings, the same HAProxy checks and retries, the same drain delay.
//! They run in the normal suite; the cluster itself does not.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `NAME=value` assignments at the start of a line of a shell script.
fn shell_value(script: &str, name: &str) -> String {
    script
        .lines()
        .find_map(|line| line.strip_prefix(&format!("{name}=")))
        .unwrap_or_else(|| panic!("no {name}= in the script"))
        .trim()
        .to_owned()
}

/// The lines of `text` strictly between the line `from` and the line `to` (both
/// compared trimmed), comments and blank lines left out.
fn block(text: &str, from: &str, to: &str) -> Vec<String> {
    text.lines()
        .skip_while(|line| line.trim() != from)
        .skip(1)
        .take_while(|line| line.trim() != to)
        .filter(|line| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .map(|line| line.trim_end().to_owned())
        .collect()
}

/// Patroni's cluster-wide settings (`bootstrap.dcs`) are the same; only the
/// throwaway cluster turns fsync off (docs/operations.md says why).
#[test]
fn patroni_settings_agree() {
    let script = read("deploy/cluster.sh");
    let compose = read("deploy/compose/patroni.yml");
    let mut ours: Vec<String> = block(&script, "dcs:", "initdb:")
        .into_iter()
        .map(|line| {
            line.replace("$TTL", &shell_value(&script, "TTL"))
                .replace("$LOOP_WAIT", &shell_value(&script, "LOOP_WAIT"))
                .replace("$RETRY_TIMEOUT", &shell_value(&script, "RETRY_TIMEOUT"))
        })
        .collect();
    let fsync = ours.iter().position(|line| line.trim() == "fsync: \"off\"");
    assert!(fsync.is_some(), "cluster.sh turns fsync off: {ours:#?}");
    ours.retain(|line| line.trim() != "fsync: \"off\"");
    let theirs = block(&compose, "dcs:", "initdb:");
    assert_eq!(
        ours, theirs,
        "bootstrap.dcs of cluster.sh and compose/patroni.yml"
    );
    for needed in [
        "synchronous_mode: true",
        "synchronous_mode_strict: true",
        "primary_start_timeout: 0",
        "use_pg_rewind: true",
    ] {
        assert!(
            theirs.iter().any(|line| line.trim() == needed),
            "{needed} in {theirs:#?}"
        );
    }
}

/// HAProxy's sections, as `section -> directives`: the checks, retries, timeouts and
/// error pages; not the addresses (`bind`, `server`), which differ by design.
fn haproxy_sections(config: &str) -> BTreeMap<String, Vec<String>> {
    const COMPARED: [&str; 10] = [
        "mode",
        "option",
        "http-check",
        "default-server",
        "balance",
        "retry-on",
        "retries",
        "timeout",
        "errorfile",
        "default_backend",
    ];
    let mut sections: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current = None;
    for line in config.lines() {
        let head = line.split_whitespace().next().unwrap_or_default();
        if ["defaults", "listen", "frontend", "backend"].contains(&head) && !line.starts_with(' ') {
            let name = line.split_whitespace().nth(1).unwrap_or(head).to_owned();
            current = Some(name.clone());
            sections.entry(name).or_default();
        } else if ["global", "resolvers"].contains(&head) && !line.starts_with(' ') {
            current = None;
        } else if let Some(section) = &current
            && line.starts_with("    ")
            && !line.starts_with("     ")
            && COMPARED.contains(&head)
        {
            let mut directive: Vec<&str> = line.split_whitespace().collect();
            // Error pages live elsewhere in each; the file's name is what matters.
            if head == "errorfile"
                && let Some(path) = directive.last_mut()
            {
                *path = path.rsplit('/').next().unwrap_or(path);
            }
            if let Some(directives) = sections.get_mut(section) {
                directives.push(directive.join(" "));
            }
        }
    }
    sections
}

#[test]
fn haproxy_configurations_agree() {
    let script = read("deploy/cluster.sh");
    let writer: String = script
        .lines()
        .skip_while(|line| !line.starts_with("write_haproxy_conf()"))
        .take_while(|line| !line.starts_with("    } >\"$C/haproxy.cfg\""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut ours = haproxy_sections(&writer);
    ours.remove("stats");
    let theirs = haproxy_sections(&read("deploy/compose/haproxy.cfg"));
    assert_eq!(ours, theirs);
    let api = &theirs["yaniv_api"];
    assert!(
        api.contains(&"option httpchk GET /readyz".to_owned()),
        "{api:?}"
    );
    let primary = &theirs["postgres_primary"];
    assert!(
        primary.contains(&"option httpchk OPTIONS /primary".to_owned()),
        "{primary:?}"
    );
}

/// Three of each, and the servers drain as long before they close.
#[test]
fn the_same_processes() {
    let script = read("deploy/cluster.sh");
    let compose = read("deploy/compose.yaml");
    assert_eq!(shell_value(&script, "NODES"), "(1 2 3)");
    let services: Vec<&str> = compose
        .lines()
        .skip_while(|line| *line != "services:")
        .skip(1)
        .take_while(|line| !line.starts_with(|c: char| c.is_ascii_alphabetic()))
        .filter_map(|line| {
            line.strip_prefix("  ")
                .filter(|rest| !rest.starts_with(' '))
                .and_then(|rest| rest.strip_suffix(':'))
        })
        .collect();
    for kind in ["etcd", "pg", "server"] {
        let names: Vec<&&str> = services
            .iter()
            .filter(|s| {
                s.strip_prefix(kind)
                    .is_some_and(|n| n.parse::<u8>().is_ok())
            })
            .collect();
        assert_eq!(names.len(), 3, "three {kind} services in {services:?}");
    }
    assert!(services.contains(&"haproxy"), "{services:?}");

    let delay = |text: &str| {
        text.lines()
            .find_map(|line| {
                let at = line.find("YANIV_SHUTDOWN_DELAY_MS")?;
                let digits: String = line[at..]
                    .chars()
                    .skip_while(|c| !c.is_ascii_digit())
                    .take_while(char::is_ascii_digit)
                    .collect();
                Some(digits)
            })
            .expect("a drain delay")
    };
    assert_eq!(delay(&script), delay(&compose));
    for flag in ["--heartbeat-interval", "--election-timeout"] {
        let value = |text: &str, quoted: bool| {
            let at = text.find(flag).unwrap_or_else(|| panic!("{flag}"));
            let rest = &text[at + flag.len()..];
            let rest = if quoted {
                rest.trim_start_matches(['"', ',', ' '])
            } else {
                rest.trim_start()
            };
            rest.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        };
        assert_eq!(value(&script, false), value(&compose, true), "{flag}");
    }
}

/// The two scripts at least parse (they are run by hand, not by the suite).
#[test]
fn the_cluster_scripts_parse() {
    for script in ["deploy/cluster.sh", "deploy/cluster-test.sh"] {
        let status = std::process::Command::new("bash")
            .arg("-n")
            .arg(root().join(script))
            .status()
            .expect("bash");
        assert!(status.success(), "bash -n {script}");
    }
}

/// The `bind` port of HAProxy section `section` in `config`.
fn bound_port(config: &str, section: &str) -> String {
    config
        .lines()
        .skip_while(|line| line.trim() != format!("listen {section}"))
        .skip(1)
        .take_while(|line| line.starts_with(' '))
        .find_map(|line| line.trim().strip_prefix("bind "))
        .and_then(|address| address.rsplit(':').next())
        .unwrap_or_else(|| panic!("no bind in listen {section}"))
        .to_owned()
}

/// Both give the servers a replica for their lag-tolerant reads, and it is HAProxy's
/// replica port (Patroni's `/replica` check), not the primary's and not one node.
#[test]
fn the_servers_read_the_replicas_through_haproxy() {
    let script = read("deploy/cluster.sh");
    let api_env: String = script
        .lines()
        .skip_while(|line| !line.trim_start().starts_with("API_ENV=("))
        .take_while(|line| !line.contains("spawn "))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        api_env.contains("YANIV_DATABASE_REPLICA_URL=\"$REPLICA_URL\""),
        "{api_env}"
    );
    let replica_url = shell_value(&script, "REPLICA_URL");
    assert!(replica_url.contains(":$REPLICA_PORT/"), "{replica_url}");
    assert_eq!(bound_port(&script, "postgres_replicas"), "$REPLICA_PORT");
    assert_eq!(bound_port(&script, "postgres_primary"), "$PRIMARY_PORT");

    let compose = read("deploy/compose.yaml");
    let haproxy = read("deploy/compose/haproxy.cfg");
    let url_port = |name: &str| {
        compose
            .lines()
            .find_map(|line| line.trim().strip_prefix(&format!("{name}: ")))
            .and_then(|url| url.split("@haproxy:").nth(1))
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no {name} through haproxy in compose.yaml"))
            .to_owned()
    };
    assert_eq!(
        url_port("YANIV_DATABASE_REPLICA_URL"),
        bound_port(&haproxy, "postgres_replicas")
    );
    assert_eq!(
        url_port("DATABASE_URL"),
        bound_port(&haproxy, "postgres_primary")
    );
}
