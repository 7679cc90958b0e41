//! Throwaway PostgreSQL clusters for integration tests.
//!
//! Self-contained: include it with `#[path = "common/postgres.rs"] mod postgres;`.
//!
//! The server binaries are looked up in `pg_config --bindir`, then in
//! `/usr/lib/postgresql/*/bin` (newest version first), then in `PATH`. `initdb` refuses to
//! run as root, so when the effective uid is 0 the server programs run as the `postgres` user
//! through `runuser -u postgres --`, in a temporary directory owned by that user.
//!
//! Every cluster has a warden: a `sh` child that runs the cluster's `initdb` and `pg_ctl`
//! commands, one at a time, as lines read from its stdin, a pipe that this process holds
//! open. When the test process ends in any way (even a panic, `abort` or `SIGKILL`) the pipe
//! closes; the warden finishes the command under way, then stops the server and removes its
//! directory. So the shared cluster, which lives in a static and is never dropped, cannot
//! outlive the tests, even when they are killed while it starts. The warden is in a process
//! group of its own (a Ctrl-C of the terminal reaches neither it nor its commands), and
//! neither it nor the server holds this process's stdout or stderr: their output goes to log
//! files of the cluster's directory, so `cargo test` does not wait for them.
#![allow(dead_code)] // each test binary uses its own part

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// Whether the PostgreSQL server binaries are present (`initdb` and `pg_ctl` found) and, when
/// running as root, whether the `postgres` user and `runuser` to become it exist too.
///
/// With `BAROQUE_REQUIRE_POSTGRES` set (CI sets it), a missing binary is a failure, not a reason
/// to skip.
pub fn available() -> bool {
    let here =
        bindir().is_some() && (!is_root() || (postgres_user().is_some() && runuser().is_some()));
    if !here && std::env::var_os("BAROQUE_REQUIRE_POSTGRES").is_some() {
        panic!(
            "BAROQUE_REQUIRE_POSTGRES is set, but the PostgreSQL server binaries cannot be used"
        );
    }
    here
}

/// [`available`], saying on standard error that the test is skipped when it is not.
pub fn here_or_skip() -> bool {
    let here = available();
    if !here {
        eprintln!("skipped: the PostgreSQL server binaries are missing (install postgresql)");
    }
    here
}

/// The cluster shared by this test process, started on first use.
///
/// Panics with the server's log when it cannot be started (every caller panics alike; the
/// start is attempted once).
pub fn cluster() -> &'static Cluster {
    static SHARED: OnceLock<Result<Cluster, String>> = OnceLock::new();
    match SHARED.get_or_init(Cluster::new) {
        Ok(cluster) => cluster,
        Err(message) => panic!("{message}"),
    }
}

/// A cluster of its own (not shared), for a test that stops and starts the server: stopped
/// and removed when dropped.
pub fn private_cluster() -> Cluster {
    Cluster::new().unwrap_or_else(|message| panic!("{message}"))
}

/// What a cluster of [`tls_cluster`] is given: PEM text of its certificate, its key and the CA
/// it trusts for client certificates, and its `pg_hba.conf`.
pub struct TlsSetup {
    pub cert_pem: String,
    pub key_pem: String,
    pub ca_pem: String,
    pub hba: String,
}

/// A cluster of its own with `ssl=on`, the certificate, key and CA of `setup` and its
/// `pg_hba.conf` (its Unix socket should stay `local ... trust` for [`Cluster::fresh_database`]).
pub fn tls_cluster(setup: &TlsSetup) -> Cluster {
    Cluster::new_with(Some(setup)).unwrap_or_else(|message| panic!("{message}"))
}

/// A running PostgreSQL cluster in a temporary directory: user `postgres`, trust
/// authentication, listening on `127.0.0.1:PORT` and on a Unix socket in its directory.
pub struct Cluster {
    bindir: PathBuf,
    /// The temporary directory: `data/` (the cluster), `server.log`, `harness.log` (output of
    /// initdb, pg_ctl and the warden) and the server's Unix socket.
    dir: PathBuf,
    port: u16,
    /// Server settings of its own (`-c name=value ...`): TLS.
    settings: String,
    /// The warden, which runs the commands; also serializes them (and `stop` and `start`).
    warden: Mutex<Warden>,
}

/// The `sh` running a cluster's commands, and the pipes to it.
struct Warden {
    child: Child,
    /// Command lines to `eval`; its closing makes the warden stop the server and remove the
    /// directory.
    stdin: Option<ChildStdin>,
    /// The exit status of each command, a line each.
    stdout: BufReader<ChildStdout>,
}

impl Cluster {
    /// The TCP port of 127.0.0.1 the server listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The temporary directory holding the cluster (`data/`) and its logs.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The URL of database `name` of this cluster.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    /// A new empty database with a unique name (`t_<pid>_<counter>`) and its URL
    /// `postgres://postgres@127.0.0.1:PORT/NAME`.
    pub fn fresh_database(&self) -> String {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let name = format!(
            "t_{}_{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        // Through the Unix socket, which every cluster's pg_hba.conf trusts, TLS or not.
        let admin = format!(
            "host={} port={} user=postgres dbname=postgres",
            self.dir.display(),
            self.port
        );
        let mut client = postgres::Client::connect(&admin, postgres::NoTls).unwrap_or_else(|e| {
            panic!(
                "cannot connect to the test cluster on port {}: {e}",
                self.port
            )
        });
        client
            .batch_execute(&format!("CREATE DATABASE \"{name}\""))
            .unwrap_or_else(|e| panic!("cannot create database {name}: {e}"));
        self.url(&name)
    }

    /// Stops the server (`pg_ctl stop -m fast`, waiting until it is down). Panics on failure.
    pub fn stop(&self) {
        if let Err(message) = self.pg_ctl_stop("fast") {
            panic!("{message}");
        }
    }

    /// Starts the server again, on the same port and data, waiting until it accepts
    /// connections. Panics with the server log on failure.
    pub fn start(&self) {
        if let Err(message) = self.pg_ctl_start() {
            panic!("{message}");
        }
    }

    fn new() -> Result<Cluster, String> {
        Cluster::new_with(None)
    }

    fn new_with(tls: Option<&TlsSetup>) -> Result<Cluster, String> {
        let bindir = bindir().ok_or_else(|| {
            "PostgreSQL server binaries (initdb, pg_ctl) not found: neither in `pg_config \
             --bindir`, /usr/lib/postgresql/*/bin nor PATH"
                .to_string()
        })?;
        if is_root() {
            let (uid, gid) = postgres_user()
                .ok_or("running as root, but there is no `postgres` user to run the server")?;
            runuser().ok_or("running as root, but `runuser` is not found")?;
            let dir = make_dir()?;
            chown(&dir, uid, gid)?;
            Cluster::init(bindir, dir, tls)
        } else {
            Cluster::init(bindir, make_dir()?, tls)
        }
    }

    fn init(bindir: PathBuf, dir: PathBuf, tls: Option<&TlsSetup>) -> Result<Cluster, String> {
        // The warden first, so that the directory goes away whatever happens next.
        let warden = spawn_warden(&dir)?;
        let mut cluster = Cluster {
            bindir,
            dir,
            port: 0,
            settings: String::new(),
            warden: Mutex::new(warden),
        };
        let initdb = format!(
            "{} -D {} -A trust -U postgres --no-sync -E UTF8 --locale=C",
            cluster.program("initdb"),
            quote_path(&cluster.data())
        );
        cluster
            .run(&initdb)
            .map_err(|e| format!("initdb failed: {e}"))?;
        if let Some(tls) = tls {
            cluster.set_up_tls(tls)?;
        }

        // A free port can be taken by someone else before the server binds it: try a few.
        let mut failure = String::new();
        for _ in 0..3 {
            cluster.port = free_port()?;
            match cluster.pg_ctl_start() {
                Ok(()) => return Ok(cluster),
                Err(message) => failure = message,
            }
        }
        Err(failure)
    }

    /// Writes the certificate, key, CA and `pg_hba.conf` of `tls` into the data directory (owned
    /// by the server's user, the key readable by it alone) and turns `ssl` on.
    fn set_up_tls(&mut self, tls: &TlsSetup) -> Result<(), String> {
        use std::os::unix::fs::PermissionsExt;
        let data = self.data();
        for (name, text, mode) in [
            ("server.crt", &tls.cert_pem, 0o644),
            ("server.key", &tls.key_pem, 0o600),
            ("root.crt", &tls.ca_pem, 0o644),
            ("pg_hba.conf", &tls.hba, 0o600),
        ] {
            let path = data.join(name);
            std::fs::write(&path, text)
                .and_then(|()| {
                    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode))
                })
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            if is_root() {
                let (uid, gid) = postgres_user().ok_or("no `postgres` user")?;
                chown(&path, uid, gid)?;
            }
        }
        self.settings = " -c ssl=on -c ssl_cert_file=server.crt -c ssl_key_file=server.key \
                         -c ssl_ca_file=root.crt"
            .into();
        Ok(())
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    fn server_log(&self) -> PathBuf {
        self.dir.join("server.log")
    }

    fn harness_log(&self) -> PathBuf {
        self.dir.join("harness.log")
    }

    /// A server program of the bin dir as the start of a shell command line, through
    /// `runuser -u postgres --` when root.
    fn program(&self, name: &str) -> String {
        format!(
            "{}{}",
            runuser_prefix(),
            quote_path(&self.bindir.join(name))
        )
    }

    /// Has the warden run the shell command line `line`, with its output appended to
    /// `harness.log`; on failure, the error names the new part of `harness.log` and the end
    /// of `server.log`.
    fn run(&self, line: &str) -> Result<(), String> {
        let mut warden = self.warden.lock().unwrap_or_else(|e| e.into_inner());
        let log_path = self.harness_log();
        let before = std::fs::metadata(&log_path).map(|m| m.len()).unwrap_or(0);
        let status = warden.run(line);
        if status.as_deref() == Ok("0") {
            return Ok(());
        }
        let all = std::fs::read(&log_path).unwrap_or_default();
        let output = String::from_utf8_lossy(&all[(before as usize).min(all.len())..]);
        let status = match status {
            Ok(code) => format!("ended with status {code}"),
            Err(e) => e,
        };
        Err(format!(
            "`{line}` {status}\n--- its output ---\n{}\n--- end of {} ---\n{}",
            output.trim_end(),
            self.server_log().display(),
            tail(&self.server_log(), 60)
        ))
    }

    fn pg_ctl_start(&self) -> Result<(), String> {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300{}",
            self.port,
            quote_path(&self.dir),
            self.settings
        );
        let line = format!(
            "{} -D {} -l {} -w -t 120 -o {} start",
            self.program("pg_ctl"),
            quote_path(&self.data()),
            quote_path(&self.server_log()),
            shell_quote(&options)
        );
        self.run(&line).map_err(|e| {
            format!(
                "cannot start the PostgreSQL test cluster in {} on port {}: {e}",
                self.dir.display(),
                self.port
            )
        })
    }

    fn pg_ctl_stop(&self, mode: &str) -> Result<(), String> {
        let line = format!(
            "{} -D {} -w -t 120 -m {mode} stop",
            self.program("pg_ctl"),
            quote_path(&self.data())
        );
        self.run(&line).map_err(|e| {
            format!(
                "cannot stop the PostgreSQL test cluster in {}: {e}",
                self.dir.display()
            )
        })
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if self.port != 0 {
            let _ = self.pg_ctl_stop("fast");
        }
        // Closing the warden's stdin makes it stop what remains and remove the directory.
        let warden = self.warden.get_mut().unwrap_or_else(|e| e.into_inner());
        drop(warden.stdin.take());
        let _ = warden.child.wait();
    }
}

impl Warden {
    /// Sends `line` (one line of shell) and reads its exit status.
    fn run(&mut self, line: &str) -> Result<String, String> {
        let stdin = self.stdin.as_mut().ok_or("the warden is closed")?;
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("cannot be sent to the warden: {e}"))?;
        let mut status = String::new();
        match self.stdout.read_line(&mut status) {
            Ok(0) => Err("got no status: the warden is gone".into()),
            Ok(_) => Ok(status.trim().to_string()),
            Err(e) => Err(format!("got no status from the warden: {e}")),
        }
    }
}

/// A new temporary directory for a cluster, not removed by `tempfile` (the warden removes it).
fn make_dir() -> Result<PathBuf, String> {
    Ok(tempfile::Builder::new()
        .prefix("baroque-pg-")
        .tempdir()
        .map_err(|e| format!("cannot create a temporary directory: {e}"))?
        .keep())
}

/// The `sh` that runs the command lines read from its stdin in `dir` (output to
/// `harness.log`, exit status on its stdout) and, at the end of its stdin, stops the cluster
/// of `dir` (immediate mode) if it runs and removes `dir`.
fn spawn_warden(dir: &Path) -> Result<Warden, String> {
    let quoted_dir = quote_path(dir);
    let data = quote_path(&dir.join("data"));
    let log = quote_path(&dir.join("harness.log"));
    let pg_ctl = match bindir() {
        Some(bindir) => format!("{}{}", runuser_prefix(), quote_path(&bindir.join("pg_ctl"))),
        None => "false".into(),
    };
    let script = format!(
        "trap '' INT HUP\n\
         cd {quoted_dir} || exit 1\n\
         while IFS= read -r line; do\n\
         \x20 eval \"$line\" </dev/null >>{log} 2>&1\n\
         \x20 status=$?\n\
         \x20 (echo \"$status\")\n\
         done\n\
         cd /\n\
         if [ -f {data}/postmaster.pid ]; then\n\
         \x20 {pg_ctl} -D {data} -w -t 60 -m immediate stop </dev/null >>{log} 2>&1\n\
         fi\n\
         rm -rf {quoted_dir}\n"
    );
    let stderr = File::options()
        .create(true)
        .append(true)
        .open(dir.join("warden.log"))
        .map_err(|e| format!("cannot create the warden's log: {e}"))?;
    let mut command = Command::new("sh");
    command
        .args(["-c", &script])
        .current_dir("/")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .process_group(0);
    // Settings of the environment that would redirect the server programs.
    for name in ["PGDATA", "PGPORT", "PGHOST", "PGUSER", "PGOPTIONS"] {
        command.env_remove(name);
    }
    let mut child = command
        .spawn()
        .map_err(|e| format!("cannot spawn the cluster's warden: {e}"))?;
    let stdin = child.stdin.take();
    let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
    Ok(Warden {
        child,
        stdin,
        stdout,
    })
}

/// `runuser -u postgres -- ` when root, else nothing.
fn runuser_prefix() -> String {
    match runuser().filter(|_| is_root()) {
        Some(runuser) => format!("{} -u postgres -- ", quote_path(&runuser)),
        None => String::new(),
    }
}

/// `path` quoted for `sh`.
fn quote_path(path: &Path) -> String {
    shell_quote(&path.to_string_lossy())
}

/// The folder of `initdb` and `pg_ctl`, found once.
fn bindir() -> Option<PathBuf> {
    static BINDIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    BINDIR
        .get_or_init(|| {
            let has_both =
                |dir: &Path| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file();
            let from_pg_config = Command::new("pg_config")
                .arg("--bindir")
                .stdin(Stdio::null())
                .stderr(Stdio::null())
                .output()
                .ok()
                .filter(|output| output.status.success())
                .map(|output| PathBuf::from(String::from_utf8_lossy(&output.stdout).trim()));
            if let Some(dir) = from_pg_config.filter(|dir| has_both(dir)) {
                return Some(dir);
            }
            let mut versions: Vec<(Vec<u32>, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
                .into_iter()
                .flatten()
                .flatten()
                .map(|entry| {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    let version = name.split('.').map(|n| n.parse().unwrap_or(0)).collect();
                    (version, entry.path().join("bin"))
                })
                .filter(|(_, dir)| has_both(dir))
                .collect();
            versions.sort();
            if let Some((_, dir)) = versions.pop() {
                return Some(dir);
            }
            std::env::split_paths(&std::env::var_os("PATH")?).find(|dir| has_both(dir))
        })
        .clone()
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// The uid and gid of the `postgres` user, looked up once.
fn postgres_user() -> Option<(libc::uid_t, libc::gid_t)> {
    static USER: OnceLock<Option<(libc::uid_t, libc::gid_t)>> = OnceLock::new();
    // SAFETY: the name is a NUL-terminated string; the record returned (static storage of
    // libc) is read at once, and the OnceLock keeps this module's calls from racing.
    *USER.get_or_init(|| unsafe {
        let entry = libc::getpwnam(c"postgres".as_ptr());
        if entry.is_null() {
            None
        } else {
            Some(((*entry).pw_uid, (*entry).pw_gid))
        }
    })
}

fn runuser() -> Option<PathBuf> {
    [
        "/usr/sbin/runuser",
        "/sbin/runuser",
        "/usr/bin/runuser",
        "/bin/runuser",
    ]
    .iter()
    .map(PathBuf::from)
    .find(|path| path.is_file())
}

fn chown(path: &Path, uid: libc::uid_t, gid: libc::gid_t) -> Result<(), String> {
    use std::os::unix::ffi::OsStrExt;
    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|_| format!("{} holds a NUL byte", path.display()))?;
    // SAFETY: c_path is a valid NUL-terminated string.
    if unsafe { libc::chown(c_path.as_ptr(), uid, gid) } != 0 {
        return Err(format!(
            "cannot chown {} to the postgres user: {}",
            path.display(),
            std::io::Error::last_os_error()
        ));
    }
    Ok(())
}

/// A port of 127.0.0.1 free at the time of the call.
fn free_port() -> Result<u16, String> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .map_err(|e| format!("cannot find a free port: {e}"))
}

/// `text` quoted for `sh`.
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The last `lines` lines of the file at `path`, or a note that it cannot be read.
fn tail(path: &Path, lines: usize) -> String {
    match std::fs::read(path) {
        Ok(bytes) => {
            let text = String::from_utf8_lossy(&bytes);
            let all: Vec<&str> = text.lines().collect();
            all[all.len().saturating_sub(lines)..].join("\n")
        }
        Err(e) => format!("({} cannot be read: {e})", path.display()),
    }
}
