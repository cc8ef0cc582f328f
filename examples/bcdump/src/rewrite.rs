//! `--rewrite FILE -o OUT`: the library's lossless round trip, written to OUT, with its counts.

use std::io::{self, Write};
use std::path::Path;

use crate::Failure;

/// Rewrites `bytes` into `output` (`-`: standard output) and prints the counts to `out`, or
/// to standard error when the rewrite itself goes to standard output; `parallel`: with
/// the blocks that can be read apart rewritten on rayon's pool (the same output).
pub fn run(
    bytes: &[u8],
    output: &Path,
    parallel: bool,
    json: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let rewritten = if parallel {
        bitcode_schema::rewrite::rewrite_parallel(bytes)?
    } else {
        bitcode_schema::rewrite::rewrite(bytes)?
    };
    let to_stdout = output.as_os_str() == "-";
    if to_stdout {
        out.write_all(&rewritten.bytes)?;
        out.flush()?;
        write_stats(&rewritten.stats, json, &mut io::stderr().lock())?;
    } else {
        std::fs::write(output, &rewritten.bytes).map_err(|e| Failure::WriteFile(output.to_path_buf(), e))?;
        write_stats(&rewritten.stats, json, out)?;
    }
    Ok(())
}

/// The summary line and one line per kind of raw record, or one JSON object.
fn write_stats(
    stats: &bitcode_schema::rewrite::RewriteStats,
    json: bool,
    out: &mut impl Write,
) -> io::Result<()> {
    if json {
        serde_json::to_writer(&mut *out, stats).map_err(io::Error::other)?;
        return writeln!(out);
    }
    writeln!(out, "{}", stats.summary())?;
    for (why, n) in &stats.raw {
        writeln!(out, "raw {n} {why}")?;
    }
    Ok(())
}
