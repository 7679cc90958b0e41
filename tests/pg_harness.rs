//! Self-test of the throwaway PostgreSQL clusters of `tests/common/postgres.rs`.

#[path = "common/postgres.rs"]
mod postgres;

use ::postgres::{Client, NoTls};

#[test]
fn fresh_databases_are_distinct_and_usable() {
    if !postgres::here_or_skip() {
        return;
    }
    let cluster = postgres::cluster();
    let first = cluster.fresh_database();
    let second = cluster.fresh_database();
    assert_ne!(first, second);
    let prefix = format!("postgres://postgres@127.0.0.1:{}/", cluster.port());
    assert!(first.starts_with(&prefix), "{first}");
    assert!(second.starts_with(&prefix), "{second}");

    for (url, value) in [(&first, 1), (&second, 2)] {
        let mut client = Client::connect(url, NoTls).unwrap();
        client.batch_execute("CREATE TABLE t (x int)").unwrap();
        client
            .execute("INSERT INTO t (x) VALUES ($1)", &[&value])
            .unwrap();
        let name: String = client
            .query_one("SELECT current_database()", &[])
            .unwrap()
            .get(0);
        assert!(
            url.ends_with(&format!("/{name}")),
            "{url} is database {name}"
        );
    }
    // Each database holds only its own row: they are distinct databases.
    for (url, value) in [(&first, 1), (&second, 2)] {
        let mut client = Client::connect(url, NoTls).unwrap();
        let rows: Vec<i32> = client
            .query("SELECT x FROM t", &[])
            .unwrap()
            .iter()
            .map(|row| row.get(0))
            .collect();
        assert_eq!(rows, [value], "{url}");
    }
}

#[test]
fn private_cluster_stops_and_starts_again() {
    if !postgres::here_or_skip() {
        return;
    }
    let cluster = postgres::private_cluster();
    assert_ne!(cluster.port(), postgres::cluster().port());
    let url = cluster.fresh_database();
    let mut client = Client::connect(&url, NoTls).unwrap();
    client
        .batch_execute("CREATE TABLE t (x int); INSERT INTO t VALUES (7)")
        .unwrap();

    cluster.stop();
    assert!(
        client.query_one("SELECT 1", &[]).is_err(),
        "the old connection still works"
    );
    assert!(
        Client::connect(&url, NoTls).is_err(),
        "a stopped server accepted a connection"
    );

    cluster.start();
    let mut client = Client::connect(&url, NoTls).unwrap();
    let x: i32 = client.query_one("SELECT x FROM t", &[]).unwrap().get(0);
    assert_eq!(x, 7, "the data survives the restart");

    let dir = cluster.dir().to_path_buf();
    drop(client);
    drop(cluster);
    assert!(!dir.exists(), "{} is left after drop", dir.display());
}
