//! `compose.yaml` (two replicas on PostgreSQL behind nginx) and the `deploy/nginx.conf` it mounts:
//! the services, their health checks, the shared settings of the replicas, the dependencies,
//! the published port, the upstream of the balancer and the named volumes. No Docker engine is
//! needed; when the `docker compose` plugin is installed, `docker compose config` must accept
//! the file too.

use serde_yaml::Value;
use std::path::{Path, PathBuf};

const REPLICAS: [&str; 2] = ["baroque-1", "baroque-2"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn compose() -> Value {
    let path = root().join("compose.yaml");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("compose.yaml is not YAML: {e}"))
}

fn service<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc.get("services")
        .and_then(|s| s.get(name))
        .unwrap_or_else(|| panic!("compose.yaml has no service {name}"))
}

/// A service's environment, in either of the two forms (a map, or a list of `KEY=VALUE`).
fn environment(service: &Value) -> Vec<(String, String)> {
    match service.get("environment") {
        None => Vec::new(),
        Some(Value::Mapping(m)) => m
            .iter()
            .map(|(k, v)| {
                let key = k
                    .as_str()
                    .expect("an environment key is a string")
                    .to_string();
                let value = match v {
                    Value::String(s) => s.clone(),
                    Value::Bool(b) => b.to_string(),
                    Value::Number(n) => n.to_string(),
                    Value::Null => String::new(),
                    other => panic!("{key}: not a scalar: {other:?}"),
                };
                (key, value)
            })
            .collect(),
        Some(Value::Sequence(items)) => items
            .iter()
            .map(|item| {
                let s = item.as_str().expect("an environment entry is a string");
                let (k, v) = s.split_once('=').unwrap_or((s, ""));
                (k.to_string(), v.to_string())
            })
            .collect(),
        Some(other) => panic!("environment is neither a map nor a list: {other:?}"),
    }
}

fn env_var(service: &Value, name: &str, key: &str) -> String {
    environment(service)
        .into_iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
        .unwrap_or_else(|| panic!("{name} does not set {key}"))
}

/// The condition of `from`'s dependency on `on` (the long form of `depends_on`).
fn dependency_condition<'a>(from: &'a Value, name: &str, on: &str) -> &'a str {
    let dep = from
        .get("depends_on")
        .and_then(|d| d.get(on))
        .unwrap_or_else(|| panic!("{name} does not depend on {on} (with a condition)"));
    dep.get("condition")
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{name}'s dependency on {on} has no condition"))
}

/// The `(source, target)` pairs of a service's volumes, in either syntax.
fn mounts(service: &Value) -> Vec<(String, String)> {
    let Some(list) = service.get("volumes").and_then(Value::as_sequence) else {
        return Vec::new();
    };
    list.iter()
        .map(|v| match v {
            Value::String(s) => {
                let mut parts = s.splitn(3, ':');
                let source = parts.next().unwrap_or_default().to_string();
                let target = parts.next().unwrap_or_default().to_string();
                (source, target)
            }
            Value::Mapping(_) => (
                v.get("source")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                v.get("target")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
            ),
            other => panic!("a volume is neither a string nor a map: {other:?}"),
        })
        .collect()
}

/// A volume source that is a name rather than a path on the host.
fn is_named(source: &str) -> bool {
    !source.is_empty()
        && !source.starts_with('.')
        && !source.starts_with('/')
        && !source.starts_with('~')
        && !source.starts_with('$')
}

/// The host of a `postgres://user:password@host:port/db` URL.
fn url_host(url: &str) -> &str {
    let rest = url
        .strip_prefix("postgres://")
        .or_else(|| url.strip_prefix("postgresql://"))
        .unwrap_or_else(|| panic!("not a postgres:// URL: {url}"));
    let authority = rest.split('/').next().unwrap_or_default();
    let host_port = authority.rsplit('@').next().unwrap_or_default();
    host_port.split(':').next().unwrap_or_default()
}

/// The bodies of the `upstream NAME { ... }` blocks of an nginx configuration, comments removed
/// (a directive that begins a line; `proxy_next_upstream` is another directive).
fn upstream_blocks(conf: &str) -> Vec<String> {
    let lines: Vec<&str> = conf
        .lines()
        .map(|l| l.split('#').next().unwrap_or_default().trim())
        .collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].starts_with("upstream ") && lines[i].ends_with('{') {
            let mut body = Vec::new();
            i += 1;
            while i < lines.len() && lines[i] != "}" {
                body.push(lines[i]);
                i += 1;
            }
            blocks.push(body.join("\n"));
        }
        i += 1;
    }
    blocks
}

#[test]
fn the_file_follows_the_compose_specification_without_a_version() {
    let doc = compose();
    assert!(
        doc.get("version").is_none(),
        "the Compose specification has no version key"
    );
    for name in ["postgres", "baroque-1", "baroque-2", "balancer"] {
        service(&doc, name);
    }
}

#[test]
fn every_service_has_a_health_check() {
    let doc = compose();
    for name in ["postgres", "baroque-1", "baroque-2", "balancer"] {
        let test = service(&doc, name)
            .get("healthcheck")
            .and_then(|h| h.get("test"))
            .unwrap_or_else(|| panic!("{name} has no healthcheck test"));
        match test {
            Value::String(s) => assert!(!s.trim().is_empty(), "{name}: an empty healthcheck"),
            Value::Sequence(items) => {
                assert!(!items.is_empty(), "{name}: an empty healthcheck");
                let first = items[0].as_str().unwrap_or_default();
                assert!(first != "NONE", "{name}: the healthcheck is disabled");
                assert!(items.len() > 1, "{name}: a healthcheck without a command");
            }
            other => panic!("{name}: the healthcheck test is {other:?}"),
        }
    }
    for name in REPLICAS {
        let test = service(&doc, name)["healthcheck"]["test"].clone();
        let words: Vec<&str> = test
            .as_sequence()
            .expect("a list")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert_eq!(words, ["CMD", "baroque", "health"], "{name}");
    }
}

#[test]
fn the_replicas_share_one_postgres_store_and_one_write_token() {
    let doc = compose();
    let dbs: Vec<String> = REPLICAS
        .iter()
        .map(|name| env_var(service(&doc, name), name, "BAROQUE_DB"))
        .collect();
    assert_eq!(dbs[0], dbs[1], "the replicas use different stores");
    assert!(
        dbs[0].starts_with("postgres://") || dbs[0].starts_with("postgresql://"),
        "BAROQUE_DB is not a PostgreSQL URL: {}",
        dbs[0]
    );
    let host = url_host(&dbs[0]);
    assert_eq!(
        host, "postgres",
        "BAROQUE_DB does not name the postgres service"
    );
    let image = service(&doc, host)
        .get("image")
        .and_then(Value::as_str)
        .expect("the postgres service has an image");
    assert!(image.starts_with("postgres:"), "{image}");

    let tokens: Vec<String> = REPLICAS
        .iter()
        .map(|name| env_var(service(&doc, name), name, "BAROQUE_WRITE_TOKEN"))
        .collect();
    assert_eq!(
        tokens[0], tokens[1],
        "the replicas use different write tokens"
    );
    assert!(
        tokens[0].starts_with("${BAROQUE_WRITE_TOKEN"),
        "the write token is not read from BAROQUE_WRITE_TOKEN: {}",
        tokens[0]
    );

    for name in REPLICAS {
        let s = service(&doc, name);
        assert!(
            s.get("build").is_some(),
            "{name} is not built from the Dockerfile"
        );
        assert_eq!(
            env_var(s, name, "BAROQUE_TRUST_FORWARDED_FOR"),
            "true",
            "{name}"
        );
        assert!(
            env_var(s, name, "BAROQUE_ADDR").starts_with("0.0.0.0:"),
            "{name} does not listen on every interface"
        );
        assert!(
            s.get("ports").is_none(),
            "{name} publishes a port: only the balancer should"
        );
        assert_eq!(
            dependency_condition(s, name, "postgres"),
            "service_healthy",
            "{name}"
        );
    }
}

#[test]
fn the_balancer_waits_for_both_replicas_and_publishes_a_port() {
    let doc = compose();
    let balancer = service(&doc, "balancer");
    for replica in REPLICAS {
        assert_eq!(
            dependency_condition(balancer, "balancer", replica),
            "service_healthy"
        );
    }
    let ports = balancer
        .get("ports")
        .and_then(Value::as_sequence)
        .expect("the balancer publishes no port");
    assert!(!ports.is_empty(), "the balancer publishes no port");
}

#[test]
fn the_mounted_nginx_configuration_balances_both_replicas() {
    let doc = compose();
    let balancer = service(&doc, "balancer");
    let (source, _) = mounts(balancer)
        .into_iter()
        .find(|(_, target)| target.starts_with("/etc/nginx/"))
        .expect("the balancer mounts no nginx configuration");
    let path = root().join(&source);
    assert!(
        Path::new(&source).is_relative() && path.is_file(),
        "the mounted configuration {source} is not a file of the repository"
    );
    let conf = std::fs::read_to_string(&path).unwrap();
    let directives: String = conf
        .lines()
        .map(|l| l.split('#').next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");

    let blocks = upstream_blocks(&conf);
    assert!(!blocks.is_empty(), "{source} has no upstream block");
    for replica in REPLICAS {
        let addr = env_var(service(&doc, replica), replica, "BAROQUE_ADDR");
        let port = addr.rsplit(':').next().unwrap();
        let server = format!("server {replica}:{port}");
        assert!(
            blocks.iter().any(|b| b.contains(&server)),
            "no upstream block of {source} has `{server}`"
        );
    }
    // The replicas trust the last X-Forwarded-For address: nginx must overwrite the header.
    assert!(directives.contains("proxy_set_header X-Forwarded-For $remote_addr;"));
    assert!(!directives.contains("$proxy_add_x_forwarded_for"));
    // A POST is never passed on to a second replica.
    assert!(!directives.contains("non_idempotent"));
    // The costly requests are metered here, at the replicas' default rate and burst (each
    // replica sees only its share of a client's requests); tests/nginx.rs runs it in nginx.
    for costly in [
        "\"~^POST /v1/solve$\" $binary_remote_addr;",
        "\"~^POST /v1/play$\" $binary_remote_addr;",
        "\"~^POST /v1/puzzles$\" $binary_remote_addr;",
        "\"~^POST /v1/collections$\" $binary_remote_addr;",
        "\"~^(GET|HEAD) /v1/collections/[^/]+/export$\" $binary_remote_addr;",
    ] {
        assert!(
            directives.contains(costly),
            "{source} does not meter {costly}"
        );
    }
    let defaults = baroque::api::Settings::default();
    assert!(directives.contains(&format!(
        "limit_req_zone $costly zone=costly:10m rate={}r/m;",
        defaults.rate_limit_per_minute
    )));
    assert!(directives.contains(&format!(
        "limit_req zone=costly burst={} nodelay;",
        defaults.rate_limit_burst
    )));
    assert!(directives.contains("limit_req_status 429;"));
}

#[test]
fn every_named_volume_is_declared() {
    let doc = compose();
    let declared = doc.get("volumes").and_then(Value::as_mapping);
    let services = doc["services"].as_mapping().expect("services is a map");
    let mut named = 0;
    for (name, s) in services {
        for (source, _) in mounts(s) {
            if is_named(&source) {
                named += 1;
                assert!(
                    declared.is_some_and(|d| d.contains_key(source.as_str())),
                    "{name:?} uses the volume {source}, which is not declared"
                );
            }
        }
    }
    assert!(
        named > 0,
        "no named volume: where does PostgreSQL keep its data?"
    );
}

/// `docker compose config` needs no engine; it runs where the compose plugin is installed, and
/// fails rather than skips when `BAROQUE_REQUIRE_DOCKER` is set. The file's structure is checked by
/// the tests above on every machine.
#[test]
fn docker_compose_accepts_the_file_when_installed() {
    let installed = std::process::Command::new("docker")
        .args(["compose", "version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed {
        assert!(
            std::env::var_os("BAROQUE_REQUIRE_DOCKER").is_none(),
            "BAROQUE_REQUIRE_DOCKER is set but `docker compose version` does not run"
        );
        eprintln!("no `docker compose`: skipped (BAROQUE_REQUIRE_DOCKER makes this a failure)");
        return;
    }
    let out = std::process::Command::new("docker")
        .args(["compose", "--file", "compose.yaml", "config", "--quiet"])
        .current_dir(root())
        .env("BAROQUE_WRITE_TOKEN", "a-test-token")
        .env("BAROQUE_PG_PASSWORD", "a-test-password")
        .output()
        .expect("docker compose runs");
    assert!(
        out.status.success(),
        "docker compose config: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
