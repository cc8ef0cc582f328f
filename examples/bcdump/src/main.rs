//! bcdump: reads any LLVM bitstream file (IR bitcode, wrapper-headed bitcode, bitcode
//! embedded in native objects, serialized diagnostics, AST files, remarks) and prints it.
//!
//! ```text
//! bcdump [FILE]          readable indented dump, typed by the stream's schema (a bundled
//!                        sample when FILE is omitted)
//! bcdump --trace FILE    JSON lines, one per block start/end and record (see ../shared/oracle)
//! bcdump --stats FILE    walk every record, print counts per block id and in total
//! bcdump --check FILE    decode every record typed: records=N typed=T unknown=U errors=E warnings=W
//! bcdump --symbols FILE  the module's global values as JSON lines (as ../shared/oracle/ll-symbols)
//! bcdump --diagnostics FILE.dia   clang's serialized diagnostics as clang prints them
//! bcdump --remarks FILE  optimization remarks as YAML (FILE: a remarks file, or the object
//!                        whose remarks section names one)
//! ```
//!
//! A regular FILE is mapped into memory rather than read (as LLVM's tools do); `-` reads
//! standard input.
//!
//! Errors go to standard error as `bcdump: FILE: error: MESSAGE`, FILE being the input as
//! given (`<stdin>` for `-`, `<sample hello.bc>` for the bundled sample), or the file the
//! error is in when another one was read for it (the remarks file an object names).
//!
//! The diagnostics and remarks formats are read the way any downstream crate would read its
//! own bitstream format: a schema beside the code (schemas/*.toml) and `bitcode_schema::schema!`.

mod diagnostics;
mod dump;
mod remarks;
mod stats;
mod symbols;
mod trace;
mod typed;

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

/// The sample dumped when no file is given: examples/bcdump/data/hello.bc (see make-sample.sh there).
const SAMPLE: &[u8] = include_bytes!("../data/hello.bc");

#[derive(Parser)]
#[command(about = "Dump an LLVM bitstream file (bitcode, diagnostics, AST file, remarks)")]
struct Args {
    /// Print the JSON-lines trace of every block and record.
    #[arg(long, group = "mode")]
    trace: bool,
    /// Walk every record and print counts per block id and in total.
    #[arg(long, group = "mode")]
    stats: bool,
    /// Decode every record with the LLVM IR schema and print the counts; exit 1 when a
    /// record is unknown or does not decode.
    #[arg(long, group = "mode")]
    check: bool,
    /// Print the module's global values as JSON lines, reading only the module's own records
    /// (function bodies are skipped by their length).
    #[arg(long, group = "mode")]
    symbols: bool,
    /// Print clang's serialized diagnostics (a .dia file) as clang prints them:
    /// `file:line:col: severity: message [-Wflag]`, each note on its own line after its
    /// diagnostic.
    #[arg(long, group = "mode")]
    diagnostics: bool,
    /// Print optimization remarks as YAML documents in the layout of clang's
    /// `-fsave-optimization-record=yaml`. FILE is a bitstream remarks file with its string
    /// table, or the object file whose remarks section holds the string table and names the
    /// remarks file.
    #[arg(long, group = "mode")]
    remarks: bool,
    /// Threads for decoding function bodies and other blocks that can be read apart (the
    /// typed dump and --check); 0: one per core, 1: read everything on one thread. The
    /// output is the same either way.
    #[arg(long, default_value_t = 0)]
    jobs: usize,
    /// The file to read (`-`: standard input); the bundled sample when omitted.
    file: Option<PathBuf>,
}

impl Args {
    /// True for the default mode, the dump.
    fn is_dump(&self) -> bool {
        !(self.trace || self.stats || self.check || self.symbols || self.diagnostics || self.remarks)
    }

    /// True when the input is standard input (`-`).
    fn is_stdin(&self) -> bool {
        self.file.as_deref().is_some_and(|f| f.as_os_str() == "-")
    }

    /// The input's name in error messages.
    fn input_name(&self) -> String {
        match &self.file {
            _ if self.is_stdin() => "<stdin>".to_string(),
            Some(path) => path.display().to_string(),
            None => "<sample hello.bc>".to_string(),
        }
    }
}

/// Reports an error on standard error, naming the file it is about.
fn print_error(file: &str, message: &dyn std::fmt::Display) {
    eprintln!("bcdump: {file}: error: {message}");
}

/// The input's bytes: a regular file mapped, anything else (a pipe, a device) read whole.
enum FileBytes {
    Mapped(memmap2::Mmap),
    Read(Vec<u8>),
}

impl FileBytes {
    /// Standard input, read whole.
    fn stdin() -> io::Result<FileBytes> {
        let mut bytes = Vec::new();
        io::Read::read_to_end(&mut io::stdin().lock(), &mut bytes)?;
        Ok(FileBytes::Read(bytes))
    }

    fn open(path: &std::path::Path) -> io::Result<FileBytes> {
        let file = std::fs::File::open(path)?;
        if file.metadata()?.is_file() {
            // SAFETY: the map is read-only and private to this process; another process
            // that truncates or rewrites the file while bcdump reads it can change or
            // remove the pages under it, as with LLVM's tools, which map their inputs
            // too. Mapping spares reading the file into a fresh buffer: on a 12 MiB
            // module that copy and its page faults were a fifth of `--stats`.
            if let Ok(map) = unsafe { memmap2::Mmap::map(&file) } {
                return Ok(FileBytes::Mapped(map));
            }
        }
        let mut bytes = Vec::new();
        io::Read::read_to_end(&mut &file, &mut bytes)?;
        Ok(FileBytes::Read(bytes))
    }
}

impl std::ops::Deref for FileBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            FileBytes::Mapped(map) => map,
            FileBytes::Read(bytes) => bytes,
        }
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let name = args.input_name();
    let opened = match &args.file {
        _ if args.is_stdin() => FileBytes::stdin(),
        Some(path) => FileBytes::open(path),
        None => Ok(FileBytes::Read(SAMPLE.to_vec())),
    };
    let bytes = match opened {
        Ok(b) => b,
        Err(e) => {
            print_error(&name, &format_args!("cannot read it: {e}"));
            return ExitCode::FAILURE;
        }
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = if args.remarks {
        remarks::write_file(args.file.as_deref(), &bytes, &mut out)
    } else {
        run(&args, &name, &bytes, &mut out)
    };
    let flushed = out.flush();
    match result {
        Ok(()) => {
            // A closed pipe (e.g. `| head`) is not an error of ours.
            if let Err(e) = flushed {
                if e.kind() != io::ErrorKind::BrokenPipe {
                    print_error(&name, &Failure::Output(e));
                    return ExitCode::FAILURE;
                }
            }
            ExitCode::SUCCESS
        }
        Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Check) => ExitCode::FAILURE,
        Err(Failure::InFile { file, failure }) => {
            print_error(&file.display().to_string(), &failure);
            ExitCode::FAILURE
        }
        Err(e) => {
            print_error(&name, &e);
            ExitCode::FAILURE
        }
    }
}

/// Reads `bytes` (the input called `name` in messages) as `args` ask.
fn run(args: &Args, name: &str, bytes: &[u8], out: &mut impl Write) -> Result<(), Failure> {
    // Only --check and the typed dump use the pool; the other modes do not start its
    // threads. (Building fails only when the pool already exists, which it cannot here.)
    let parallel = args.jobs != 1 && (args.check || args.is_dump());
    if parallel {
        let _ = rayon::ThreadPoolBuilder::new().num_threads(args.jobs).build_global();
    }
    let input = bitcode_schema::Input::parse(bytes)?;
    let streams = input.streams()?;
    if args.trace {
        for stream in &streams {
            trace::write(stream, out)?;
        }
    } else if args.check {
        let mut report = bitcode_schema::llvm::CheckReport::default();
        for stream in &streams {
            report.add(match parallel {
                true => bitcode_schema::llvm::check_stream_parallel(stream)?,
                false => bitcode_schema::llvm::check_stream(stream)?,
            });
        }
        for e in &report.first_errors {
            print_error(name, e);
        }
        writeln!(out, "{}", report.summary())?;
        if report.unknown + report.errors > 0 {
            return Err(Failure::Check);
        }
    } else if args.symbols {
        for stream in &streams {
            symbols::write(stream, out)?;
        }
    } else if args.diagnostics {
        for stream in &streams {
            diagnostics::write(stream, out)?;
        }
    } else if args.stats {
        let mut totals = stats::Stats::default();
        for stream in &streams {
            totals.walk(stream)?;
        }
        totals.write(out)?;
    } else {
        for stream in &streams {
            match stream.magic() {
                bitcode_schema::Magic::LlvmIr => typed::write(stream, out, parallel)?,
                bitcode_schema::Magic::ClangDiagnostics => typed::write_with_schema(
                    stream,
                    out,
                    diagnostics::schema::block_name,
                    |block, record, ctx| {
                        diagnostics::schema::decode_record(block, record, ctx).map(|r| r.to_string())
                    },
                )?,
                bitcode_schema::Magic::Remarks => typed::write_with_schema(
                    stream,
                    out,
                    remarks::schema::block_name,
                    |block, record, ctx| {
                        remarks::schema::decode_record(block, record, ctx).map(|r| r.to_string())
                    },
                )?,
                _ => dump::write(stream, out)?,
            }
        }
    }
    Ok(())
}

/// Why bcdump stopped: the input is bad, or the output could not be written.
#[derive(Debug)]
pub enum Failure {
    /// The input is malformed (the message carries the bit offset and block path).
    Input(bitcode_schema::Error),
    /// Writing the output failed.
    Output(io::Error),
    /// `--check` found unknown records or records that do not decode (already reported).
    Check,
    /// The input is well formed but cannot give what was asked (e.g. remarks without their
    /// string table).
    Unusable(String),
    /// A failure in another file read for the input (the remarks file an object file names).
    InFile {
        /// The file the failure is in.
        file: PathBuf,
        /// What failed.
        failure: Box<Failure>,
    },
}

impl From<bitcode_schema::Error> for Failure {
    fn from(e: bitcode_schema::Error) -> Self {
        Failure::Input(e)
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Output(e)
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Input(e) => write!(f, "{e}"),
            Failure::Output(e) => write!(f, "writing output: {e}"),
            Failure::Check => write!(f, "some records are unknown or do not decode"),
            Failure::Unusable(why) => write!(f, "{why}"),
            Failure::InFile { failure, .. } => write!(f, "{failure}"),
        }
    }
}
