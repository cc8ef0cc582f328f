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
//! bcdump --rewrite FILE -o OUT   decode every record typed, encode it back, write OUT (the
//!                        same bytes when the schema loses nothing); prints what was written
//! bcdump --dis FILE [-o OUT]   the module as textual IR, as the llvm-dis of the LLVM
//!                        version (or LLVM 1.x release) that wrote it prints it
//! ```
//!
//! A regular FILE is mapped into memory rather than read (as LLVM's tools do); `-` reads
//! standard input, as does a missing FILE when standard input is not a terminal. With
//! several files each one's output follows a `FILE:` line (after an empty line), as
//! llvm-nm does. `--json` makes the typed dump, `--stats` and `--check` print JSON.
//!
//! Exit status: 0; 1 when a file is malformed or `--check` finds problems; 2 when a file
//! cannot be read (or --rewrite's OUT written), is not what the mode reads, or the command
//! line is wrong; the worst over all files.
//!
//! Errors go to standard error as `bcdump: FILE: error: MESSAGE`, FILE being the input as
//! given (`<stdin>` for `-`, `<sample hello.bc>` for the bundled sample), or the file the
//! error is in when another one was read for it (the remarks file an object names).
//!
//! Every format is read through the library: `bitcode_schema::llvm`, `diagnostics` and
//! `remarks`.

mod bytecode;
mod dis;
mod dump;
mod identify;
mod rewrite;
mod stats;
mod symbols;
mod trace;
mod typed;

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;

use bitcode_schema::{diagnostics, remarks};
use identify::Mode;

/// The sample dumped when no file is given: examples/bcdump/data/hello.bc (see make-sample.sh there).
const SAMPLE: &[u8] = include_bytes!("../data/hello.bc");

#[derive(Parser)]
#[command(version, about = "Dump an LLVM bitstream file (bitcode, diagnostics, AST file, remarks)")]
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
    /// Rewrite FILE into OUT (`-o`): every record decoded into its typed value, encoded
    /// back through the schema's generated encoder and written with the abbreviation it was
    /// read with (records no schema types are written raw). Prints the counts
    /// (`streams= blocks= definitions= records= typed= blockinfo= raw=`, then the raw
    /// records by kind; JSON with --json), on standard error when OUT is `-`.
    #[arg(long, group = "mode", requires = "output")]
    rewrite: bool,
    /// Print the module as textual IR, as the `llvm-dis` of the LLVM version that wrote it
    /// prints it (the version from the file's producer, or `--llvm-version`); LLVM 1.x
    /// bytecode as the llvm-dis of its release (1.1, 1.2, 1.3, 1.5, 1.8, 1.9 or 2.0-dev,
    /// chosen from the file). The `; ModuleID` is FILE as given. A file of several modules
    /// prints them one after another, or with `-o OUT` into OUT.0, OUT.1, ... as llvm-dis
    /// writes them.
    #[arg(long, group = "mode")]
    dis: bool,
    /// With --dis: print as the llvm-dis of this LLVM major version (13 to 22) rather than
    /// the one that wrote the file.
    #[arg(long, value_name = "N", requires = "dis")]
    llvm_version: Option<u32>,
    /// Where --rewrite or --dis writes (`-`: standard output).
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Print JSON: the typed dump as one object per record (block, record, fields),
    /// `--stats` and `--check` as one summary object.
    #[arg(long)]
    json: bool,
    /// Threads for decoding function bodies and other blocks that can be read apart (the
    /// typed dump, --check and --rewrite); 0: one per core, 1: read everything on one
    /// thread. The output is the same either way.
    #[arg(long, default_value_t = 0)]
    jobs: usize,
    /// The files to read (`-`: standard input). Without any: standard input when it is not
    /// a terminal, else the bundled sample.
    files: Vec<PathBuf>,
}

impl Args {
    /// True for the default mode, the dump.
    fn is_dump(&self) -> bool {
        !(self.trace
            || self.stats
            || self.check
            || self.symbols
            || self.diagnostics
            || self.remarks
            || self.rewrite
            || self.dis)
    }

    /// The mode asked for, as the bytecode reader names it: `None` for the dump and
    /// `--check`, which read bytecode, else the option's name.
    fn bytecode_mode(&self) -> Option<&'static str> {
        match () {
            _ if self.trace => Some("--trace"),
            _ if self.stats => Some("--stats"),
            _ if self.symbols => Some("--symbols"),
            _ if self.diagnostics => Some("--diagnostics"),
            _ if self.remarks => Some("--remarks"),
            _ if self.rewrite => Some("--rewrite"),
            _ if self.json && !self.check => Some("--json (of the dump)"),
            _ => None,
        }
    }

    /// The mode that reads only some kinds of file, if one was asked for.
    fn picky_mode(&self) -> Option<Mode> {
        match () {
            _ if self.check => Some(Mode::Check),
            _ if self.symbols => Some(Mode::Symbols),
            _ if self.diagnostics => Some(Mode::Diagnostics),
            _ if self.remarks => Some(Mode::Remarks),
            _ => None,
        }
    }
}

/// One input: a file, standard input, or the bundled sample.
enum Source {
    File(PathBuf),
    Stdin,
    /// Standard input, already read (FILE omitted, stdin not a terminal).
    Piped(Vec<u8>),
    Sample,
}

impl Source {
    /// The input's name in error messages and headers.
    fn name(&self) -> String {
        match self {
            Source::File(path) => path.display().to_string(),
            Source::Stdin | Source::Piped(_) => "<stdin>".to_string(),
            Source::Sample => "<sample hello.bc>".to_string(),
        }
    }

    /// The file's path, for reading files it names (remarks).
    fn path(&self) -> Option<&Path> {
        match self {
            Source::File(path) => Some(path),
            _ => None,
        }
    }

    /// The input's bytes; `output` is the file bcdump will write, if any.
    fn open(&self, output: Option<&Path>) -> io::Result<FileBytes> {
        match self {
            // A file about to be overwritten is read, not mapped: writing over it would
            // change the pages under the map, and shortening it take them away (SIGBUS),
            // as `bcdump --dis x.bc -o x.bc` did before.
            Source::File(path) if output.is_some_and(|o| overwrites(o, path)) => {
                Ok(FileBytes::Read(std::fs::read(path)?))
            }
            Source::File(path) => FileBytes::open(path),
            Source::Stdin => FileBytes::stdin(),
            Source::Piped(bytes) => Ok(FileBytes::Read(bytes.clone())),
            Source::Sample => Ok(FileBytes::Read(SAMPLE.to_vec())),
        }
    }
}

/// Reports an error on standard error, naming the file it is about.
fn print_error(file: &str, message: &dyn std::fmt::Display) {
    eprintln!("bcdump: {file}: error: {message}");
}

/// Whether writing `output` (or `output.N`, llvm-dis's name for the Nth of several modules)
/// may overwrite `input`.
fn overwrites(output: &Path, input: &Path) -> bool {
    if same_file(output, input) {
        return true;
    }
    let (Some(out_name), Some(in_name)) = (output.file_name(), input.file_name()) else { return false };
    let numbered = in_name
        .to_string_lossy()
        .strip_prefix(&*out_name.to_string_lossy())
        .and_then(|rest| rest.strip_prefix('.'))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    let dir =
        |p: &Path| p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
    numbered && same_file(&dir(output), &dir(input))
}

/// Whether two paths name the same file. On Unix by their device and inode, without
/// opening them: `same_file` opens both, and opening a named pipe waits for a writer.
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        same_file::is_same_file(a, b).unwrap_or(false)
    }
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

    fn open(path: &Path) -> io::Result<FileBytes> {
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

/// Exit status: the file read as asked.
const OK: u8 = 0;
/// Exit status: the file is malformed, or `--check` found problems in it.
const PROBLEMS: u8 = 1;
/// Exit status: the file cannot be read or is not what the mode reads.
const UNREADABLE: u8 = 2;

fn main() -> ExitCode {
    let args = Args::parse();
    if args.rewrite && args.output.is_none() {
        eprintln!("bcdump: error: --rewrite needs -o OUT");
        return ExitCode::from(UNREADABLE);
    }
    if args.output.is_some() && !(args.rewrite || args.dis) {
        eprintln!("bcdump: error: -o OUT is for --rewrite and --dis");
        return ExitCode::from(UNREADABLE);
    }
    if (args.rewrite || args.output.is_some()) && args.files.len() > 1 {
        eprintln!("bcdump: error: with -o OUT, bcdump reads one FILE");
        return ExitCode::from(UNREADABLE);
    }
    let sources: Vec<Source> = match args.files.as_slice() {
        [] if io::stdin().is_terminal() => vec![Source::Sample],
        // No FILE and standard input is a pipe or a file: that is the input. An empty one
        // (/dev/null, a closed stdin, as under scripts and CI) gives the sample, said on
        // standard error, so that `bcdump` alone shows the sample wherever it runs.
        [] => match FileBytes::stdin() {
            Ok(FileBytes::Read(bytes)) if !bytes.is_empty() => vec![Source::Piped(bytes)],
            Ok(_) => {
                eprintln!("bcdump: standard input is empty: reading the bundled sample (hello.bc)");
                vec![Source::Sample]
            }
            Err(e) => {
                print_error("<stdin>", &format_args!("cannot read it: {e}"));
                return ExitCode::from(UNREADABLE);
            }
        },
        files => files
            .iter()
            .map(|f| if f.as_os_str() == "-" { Source::Stdin } else { Source::File(f.clone()) })
            .collect(),
    };
    let parallel = args.jobs != 1 && (args.check || args.is_dump() || args.rewrite);
    if parallel {
        // Building fails only when the pool already exists, which it cannot here.
        let _ = rayon::ThreadPoolBuilder::new().num_threads(args.jobs).build_global();
    }
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut worst = OK;
    for source in &sources {
        let name = source.name();
        if sources.len() > 1 {
            if let Err(e) = writeln!(out, "\n{name}:") {
                return output_failed(&name, e);
            }
        }
        let status = match one(&args, source, parallel, &mut out) {
            Ok(status) => status,
            Err(e) => return output_failed(&name, e),
        };
        worst = worst.max(status);
    }
    if let Err(e) = out.flush() {
        return output_failed("<stdout>", e);
    }
    ExitCode::from(worst)
}

/// The exit when writing the output failed: a closed pipe (e.g. `| head`) is not an error
/// of ours.
fn output_failed(name: &str, e: io::Error) -> ExitCode {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return ExitCode::SUCCESS;
    }
    print_error(name, &Failure::Output(e));
    ExitCode::FAILURE
}

/// Reads one input as `args` ask; its exit status, or the output error that stops bcdump.
fn one(args: &Args, source: &Source, parallel: bool, out: &mut impl Write) -> io::Result<u8> {
    let name = source.name();
    let bytes = match source.open(args.output.as_deref().filter(|o| o.as_os_str() != "-")) {
        Ok(b) => b,
        Err(e) => {
            print_error(&name, &format_args!("cannot read it: {e}"));
            return Ok(UNREADABLE);
        }
    };
    let result = if identify::is_bytecode(&bytes) {
        if let Some(message) = identify::bytecode_mismatch(&bytes, args.bytecode_mode()) {
            print_error(&name, &message);
            return Ok(UNREADABLE);
        }
        if args.check {
            bytecode::check(&bytes, args.json, out)
        } else if args.dis {
            bytecode::dis(&bytes, &name).and_then(|text| dis::write(&[text], dis_target(args, out)))
        } else {
            bytecode::dump(&bytes, out)
        }
    } else if args.dis {
        let kind = identify::identify(&bytes);
        if !kind.fits(Mode::Dis) {
            print_error(&name, &kind.mismatch(Mode::Dis));
            return Ok(UNREADABLE);
        }
        dis::bitcode(&bytes, &name, args.llvm_version, dis_target(args, out))
    } else {
        if let Some(mode) = args.picky_mode() {
            let kind = identify::identify(&bytes);
            if !kind.fits(mode) {
                print_error(&name, &kind.mismatch(mode));
                return Ok(UNREADABLE);
            }
        }
        bitstream(args, source, &name, &bytes, parallel, out)
    };
    finish(&name, result)
}

/// Where --dis writes: `-o OUT` (but `-`), else `out`.
fn dis_target<'o, W: Write>(args: &'o Args, out: &'o mut W) -> dis::Target<'o, W> {
    match &args.output {
        Some(path) if path.as_os_str() != "-" => dis::Target::File(path),
        _ => dis::Target::Out(out),
    }
}

/// Reads one bitstream input as `args` ask.
fn bitstream(
    args: &Args,
    source: &Source,
    name: &str,
    bytes: &[u8],
    parallel: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    if args.remarks {
        // From standard input (no path): a remarks file with its own string table.
        remarks::load(source.path(), bytes)
            .map_err(Failure::Remarks)
            .and_then(|r| remarks::write_yaml(&r, out).map_err(Failure::Output))
    } else if let (true, Some(output)) = (args.rewrite, &args.output) {
        rewrite::run(bytes, output, parallel, args.json, out)
    } else {
        run(args, name, bytes, parallel, out)
    }
}

/// The exit status of one input's result, its error reported.
fn finish(name: &str, result: Result<(), Failure>) -> io::Result<u8> {
    match result {
        Ok(()) => Ok(OK),
        Err(Failure::Output(e)) => Err(e),
        Err(Failure::Check) => Ok(PROBLEMS),
        Err(e @ Failure::WriteFile(..)) => {
            print_error(name, &e);
            Ok(UNREADABLE)
        }
        Err(Failure::Remarks(remarks::Error::InFile { file, error })) => {
            // Named by the file the error is in (the remarks file an object names).
            print_error(&file.display().to_string(), error.innermost());
            Ok(PROBLEMS)
        }
        Err(e) => {
            print_error(name, &e);
            Ok(PROBLEMS)
        }
    }
}

/// Reads `bytes` (the input called `name` in messages) as `args` ask.
fn run(args: &Args, name: &str, bytes: &[u8], parallel: bool, out: &mut impl Write) -> Result<(), Failure> {
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
        if args.json {
            serde_json::to_writer(&mut *out, &report).map_err(io::Error::other)?;
            writeln!(out)?;
        } else {
            writeln!(out, "{}", report.summary())?;
        }
        if report.unknown + report.errors > 0 {
            return Err(Failure::Check);
        }
    } else if args.symbols {
        for stream in &streams {
            symbols::write(stream, out)?;
        }
    } else if args.diagnostics {
        for stream in &streams {
            diagnostics::write_text(&diagnostics::read_stream(stream)?, out)?;
        }
    } else if args.stats {
        let mut totals = stats::Stats::default();
        for stream in &streams {
            totals.walk(stream)?;
            totals.name_blocks(stream.magic(), typed::schema_block_name, typed::schema_record_name);
        }
        match args.json {
            true => totals.write_json(out)?,
            false => totals.write(out)?,
        }
    } else {
        for stream in &streams {
            typed::write_any(stream, out, parallel, args.json)?;
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
    /// --rewrite could not write its output file.
    WriteFile(PathBuf, io::Error),
    /// `--check` found unknown records or records that do not decode (already reported).
    Check,
    /// Remarks could not be read (a malformed stream, no string table, a missing remarks
    /// file, or an error inside the remarks file an object names).
    Remarks(remarks::Error),
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
            Failure::WriteFile(path, e) => write!(f, "cannot write {}: {e}", path.display()),
            Failure::Check => write!(f, "some records are unknown or do not decode"),
            Failure::Remarks(e) => write!(f, "{e}"),
        }
    }
}
