//! Which process runs a collection, and whether it still does: the policy the store is given to
//! stop the collections a process left running when it ended (a crash, a restart).

/// This process, as `host/pid:start` (its start time in clock ticks since boot, from `/proc`, so
/// that a reused process id is told apart; the host, so that replicas on several machines sharing
/// one PostgreSQL store do not judge each other's processes), or `host/pid` where `/proc` is
/// missing.
pub fn this_process() -> String {
    let pid = std::process::id();
    let host = host_name();
    match process_start(pid) {
        Some(start) => format!("{host}/{pid}:{start}"),
        None => format!("{host}/{pid}"),
    }
}

/// This machine's name (`/proc/sys/kernel/hostname`, else `HOSTNAME`, else `localhost`), without
/// `/`.
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().replace('/', "-"))
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".into())
}

/// The start time of process `pid` (field 22 of `/proc/<pid>/stat`).
pub fn process_start(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// Whether the process a collection's `runner` names is still running. A process of another
/// machine is taken to be running: this one cannot tell.
pub fn is_running(runner: Option<&str>) -> bool {
    let Some(runner) = runner else { return false };
    // Rows written before the host was recorded name a process of this machine.
    let runner = match runner.split_once('/') {
        Some((host, _)) if host != host_name() => return true,
        Some((_, process)) => process,
        None => runner,
    };
    let (pid, start) = match runner.split_once(':') {
        Some((pid, start)) => (pid, start.parse::<u64>().ok()),
        None => (runner, None),
    };
    let Ok(pid) = pid.parse::<u32>() else {
        return false;
    };
    if pid == std::process::id() {
        // This process is starting up: nothing of it runs yet.
        return false;
    }
    match (process_start(pid), start) {
        (Some(now), Some(then)) => now == then,
        (Some(_), None) => true,
        (None, _) => {
            // No `/proc`: ask the kernel whether the process exists.
            #[cfg(unix)]
            {
                libc::pid_t::try_from(pid).is_ok_and(|p| {
                    // SAFETY: signal 0 only checks that the process exists.
                    unsafe { libc::kill(p, 0) == 0 }
                })
            }
            #[cfg(not(unix))]
            {
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::collections::NewCollection;
    use crate::store::{Database, Store};

    #[test]
    fn runs_whose_process_ended_are_marked_stopped() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::connect(&Database::Sqlite(dir.path().join("t.db"))).unwrap();
        // One run of a process still going (the parent of this test, say), one of a process
        // whose id came back for another program, one of a process that ended (with and
        // without this machine's name), one of a process of another machine, one of this very
        // process (starting up: nothing of it runs yet).
        let parent = std::os::unix::process::parent_id();
        let alive = match process_start(parent) {
            Some(start) => format!("{parent}:{start}"),
            None => parent.to_string(),
        };
        for (name, runner) in [
            ("beside", alive.clone()),
            ("reused", format!("{parent}:1")),
            ("ended", "999999999:5".to_string()),
            ("ended-here", format!("{}/999999999:5", host_name())),
            ("elsewhere", "another-machine/999999999:5".to_string()),
            ("this", this_process()),
        ] {
            let new = NewCollection {
                game: crate::rules::GameKind::Baroque,
                rules: "abbott".into(),
                stipulation: crate::solver::Stipulation::Mate(2),
                seed: 1,
                max_pieces: 7,
                count: 1,
                runner,
            };
            assert!(store.create_collection(name, &new).unwrap());
        }
        assert_eq!(store.stop_abandoned_collections(&is_running).unwrap(), 4);
        for name in ["beside", "elsewhere"] {
            let (c, _) = store.collection(name).unwrap().unwrap();
            assert_eq!(c.state, "running", "{name}");
        }
        for name in ["reused", "ended", "ended-here", "this"] {
            let (c, _) = store.collection(name).unwrap().unwrap();
            assert_eq!(c.state, "stopped", "{name}");
            let summary: serde_json::Value = serde_json::from_str(c.summary.get()).unwrap();
            assert_eq!(summary["stop"], "interrupted", "{name}");
        }
    }
}
