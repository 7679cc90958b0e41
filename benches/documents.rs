//! The document readers on 5 MB documents of each format, ordinary ones (prose and a diagram
//! every few hundred bytes: MediaWiki templates, HTML figures, Markdown fences in lists and
//! quotes, text boards) and pathological ones (a million nested `<div>`s or blockquotes, runs of
//! `{{`, `<!--` left open, `>` and `|` by the million). Before timing, each document is read once
//! with the heap's peak counted by a counting allocator, and the figure printed.
//!
//! `cargo bench --bench documents`. Goals: linear cost (a 5 MB document read in well under a
//! second) and a heap peak within a small multiple of the document's size.

use baroque::documents::{find, Format};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The system allocator, counting the bytes in use and their peak.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            let now = IN_USE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const SIZE: usize = 5_000_000;

/// `unit` repeated to about [`SIZE`] bytes.
fn repeat(unit: &str) -> String {
    unit.repeat(SIZE / unit.len() + 1)
}

fn documents() -> Vec<(&'static str, Format, String)> {
    let prose = "The withdrawer captures by moving directly away from an adjacent enemy piece. ";
    let html = format!(
        "<h2>Withdrawer</h2>\n<p>{}</p>\n<figure>\n  <div class=\"diag\" data-fen=\"7k/8/8/3Qr3/8/8/8/K7&#32;w 0\"></div>\n  <figcaption>1.Qa5 captures the rook &amp; more.</figcaption>\n</figure>\n<!-- <div data-fen='x'></div> -->\n<script>let a = '<div data-fen=x>';</script>\n",
        prose.repeat(6)
    );
    let markdown = format!(
        "## Withdrawer\n\n{}\n\n> A quote:\n>\n> ```fen\n> 7k/8/8/3Qr3/8/8/8/K7 w 0\n> ```\n>\n> 1.Qa5 captures the rook.\n\n- an item\n\n  ```fen rules=vchess\n  7k/8/8/3Qr3/8/8/8/K7 w 0\n  ```\n\n    ```fen\n    indented: not a diagram\n    ```\n\n",
        prose.repeat(6)
    );
    let wiki = format!(
        "== Withdrawer ==\n{}\n{{{{Chess diagram\n| tright\n| \n|  |  |  |  |  |  |  |kd\n|  |  |  |  |  |  |  |  \n|  |  |  |  |  |  |  |  \n|  |  |  |ql|rd|  |  |  \n|  |  |  |  |  |  |  |  \n|  |  |  |  |  |  |  |  \n|  |  |  |  |  |  |  |  \n|kl|  |  |  |  |  |  |  \n| 1.Qa5 captures the [[rook|Rook]].\n}}}}\n<!-- {{{{Chess diagram}}}} -->\n",
        prose.repeat(6)
    );
    let board = "   +---+---+---+---+---+---+---+---+\n".to_string();
    let mut text = format!("# Withdrawer\n\n{}\n\n{board}", prose.repeat(6));
    for rank in ["7k", "8", "8", "3Qr3", "8", "8", "8", "K7"] {
        let mut cells = String::new();
        for c in rank.chars() {
            match c.to_digit(10) {
                Some(n) => cells.push_str(&"   |".repeat(n as usize)),
                None => cells.push_str(&format!(" {c} |")),
            }
        }
        text.push_str(&format!(" 8 |{cells}\n{board}"));
    }
    text.push_str("     a   b   c   d   e   f   g   h\n\n");
    vec![
        ("mediawiki", Format::MediaWiki, repeat(&wiki)),
        ("html", Format::Html, repeat(&html)),
        ("markdown", Format::Markdown, repeat(&markdown)),
        ("text", Format::Text, repeat(&text)),
        ("html nested divs", Format::Html, repeat("<div data-x=1>")),
        (
            "html open comment",
            Format::Html,
            format!("<!--{}", repeat("<div data-fen=x>")),
        ),
        ("html bare >", Format::Html, repeat(">")),
        ("markdown nested quotes", Format::Markdown, repeat(">")),
        ("markdown nested lists", Format::Markdown, repeat("- ")),
        ("mediawiki open templates", Format::MediaWiki, repeat("{{")),
        (
            "mediawiki pipes",
            Format::MediaWiki,
            repeat("{{Chess diagram|"),
        ),
        ("text rules", Format::Text, repeat("+---")),
        (
            "html one tag of many attributes",
            Format::Html,
            format!("<div{} data-fen=x>", repeat(" a=1")),
        ),
        ("markdown listed quotes", Format::Markdown, repeat("1. >\n")),
    ]
}

fn readers(c: &mut Criterion) {
    let docs = documents();
    for (name, format, text) in &docs {
        // The first megabyte, then the whole: the cost should grow five times, no more.
        let mut cut = 1_000_000;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        for part in [&text[..cut], text.as_str()] {
            let before = IN_USE.load(Ordering::Relaxed);
            PEAK.store(before, Ordering::Relaxed);
            let start = Instant::now();
            let found = find(*format, part);
            let took = start.elapsed();
            let peak = PEAK.load(Ordering::Relaxed) - before;
            println!(
                "{name}: {:.1} MB, {} diagrams, {:.3} s, heap peak {:.1} MB",
                part.len() as f64 / 1e6,
                found.len(),
                took.as_secs_f64(),
                peak as f64 / 1e6
            );
        }
    }
    let mut group = c.benchmark_group("documents");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for (name, format, text) in &docs {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(*name, |b| {
            b.iter(|| black_box(find(*format, black_box(text))))
        });
    }
    group.finish();
}

criterion_group!(benches, readers);
criterion_main!(benches);
