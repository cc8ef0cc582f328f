//! Both sides of a differential run: llvm-bcanalyzer's answer for a file (through
//! ../shared/oracle/bcanalyzer-jsonl, many files to a Python process, see
//! `bcanalyzer_batch.py`) and the project's, as JSON-lines trace entries of the same shape.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use bitcode_schema::{Entry, ErrorKind, Input, Magic};
use serde_json::{json, Value};

/// What llvm-bcanalyzer made of a file.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// It read the file to its end; the trace entries.
    Trace(Vec<Value>),
    /// It stopped with an error; the message.
    Rejected(String),
    /// It did not answer (a signal, an assertion, the memory or output limit, a timeout, a
    /// dump the oracle cannot read); why.
    Crashed(String),
}

/// An llvm-bcanalyzer and the limits it runs under.
pub struct Analyzer {
    /// The oracle script, ../shared/oracle/bcanalyzer-jsonl.
    pub oracle: PathBuf,
    /// The analyzer to run (`llvm-bcanalyzer`, `llvm-bcanalyzer-19`, ...).
    pub tool: String,
    /// Its address space, in bytes: mutants can ask it for gigabytes.
    pub memory_bytes: u64,
    /// How long it may take on one file.
    pub timeout_seconds: f64,
    /// How much it may print for one file.
    pub output_bytes: u64,
}

impl Analyzer {
    /// `tool` through the oracle script of `shared`, with limits that every valid stream
    /// here stays far below.
    pub fn new(shared: &Path, tool: &str) -> Analyzer {
        Analyzer {
            oracle: shared.join("oracle/bcanalyzer-jsonl"),
            tool: tool.to_string(),
            memory_bytes: 4 << 30,
            timeout_seconds: 20.0,
            output_bytes: 256 << 20,
        }
    }

    /// The answers for `files`, in their order, from one Python process per core.
    pub fn answer(&self, files: &[PathBuf]) -> Vec<Answer> {
        let slots: Vec<std::sync::Mutex<Option<Answer>>> = files.iter().map(|_| Default::default()).collect();
        self.answer_each(files, |i, answer| *slots[i].lock().unwrap() = Some(answer));
        slots.into_iter().map(|s| s.into_inner().unwrap().expect("an answer for every file")).collect()
    }

    /// Calls `on_answer(index, answer)` for each of `files` as its answer arrives, from one
    /// Python process per core (file `i` goes to process `i % processes`, so large files
    /// side by side in `files` are spread). Each answer is dropped after its call: a whole
    /// corpus of traces would not fit in memory at once.
    pub fn answer_each(&self, files: &[PathBuf], on_answer: impl Fn(usize, Answer) + Sync) {
        let shards = std::thread::available_parallelism().map_or(2, |n| n.get()).min(files.len().max(1));
        let on_answer = &on_answer;
        std::thread::scope(|s| {
            for shard in 0..shards {
                let batch: Vec<(usize, &PathBuf)> =
                    files.iter().enumerate().skip(shard).step_by(shards).collect();
                s.spawn(move || self.answer_batch(&batch, on_answer));
            }
        });
    }

    fn answer_batch(&self, files: &[(usize, &PathBuf)], on_answer: &(impl Fn(usize, Answer) + Sync)) {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/oracle/bcanalyzer_batch.py");
        let mut child = Command::new("python3")
            .arg(script)
            .arg(&self.oracle)
            .arg(&self.tool)
            .arg(self.memory_bytes.to_string())
            .arg(self.timeout_seconds.to_string())
            .arg(self.output_bytes.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 runs the oracle");
        let mut stdin = child.stdin.take().expect("the oracle's input");
        let stdout = child.stdout.take().expect("the oracle's output");
        std::thread::scope(|s| {
            // Fed from another thread: the oracle answers as it reads, and a full pipe
            // either way would stall both.
            s.spawn(move || {
                for (_, file) in files {
                    writeln!(stdin, "{}", file.display()).expect("feeding the oracle");
                }
            });
            let mut answered = 0;
            for (line, (index, _)) in BufReader::new(stdout).lines().zip(files) {
                on_answer(*index, parse_answer(&line.expect("the oracle's answer")));
                answered += 1;
            }
            let status = child.wait().expect("the oracle ends");
            assert!(status.success(), "the oracle batch failed: {status}");
            assert_eq!(answered, files.len(), "the oracle answered for every file");
        })
    }
}

fn parse_answer(line: &str) -> Answer {
    let mut value: Value = serde_json::from_str(line).expect("the oracle writes JSON");
    if let Some(Value::Array(entries)) = value.get_mut("trace").map(Value::take) {
        Answer::Trace(entries)
    } else if let Some(message) = value.get("rejected").and_then(Value::as_str) {
        Answer::Rejected(message.to_string())
    } else {
        Answer::Crashed(value.get("crashed").and_then(Value::as_str).unwrap_or(line).to_string())
    }
}

/// The project's trace of a file, as `bcdump --trace` reads it (a wrapper looked through,
/// each stream from its first block): entries shaped like the oracle's, up to the end or
/// to the error that stops the walk.
pub struct ProjectTrace {
    /// The entries read.
    pub entries: Vec<Value>,
    /// What stopped the walk before the end, if anything did.
    pub error: Option<bitcode_schema::Error>,
}

impl ProjectTrace {
    /// Reads `bytes`.
    pub fn of(bytes: &[u8]) -> ProjectTrace {
        let mut entries = Vec::new();
        let error = walk(bytes, &mut entries).err();
        ProjectTrace { entries, error }
    }

    /// True when a block 15 outside LLVM IR holds a record 35 with a blob, which
    /// llvm-bcanalyzer splits as LLVM IR's metadata strings whatever the magic.
    pub fn has_metadata_strings_outside_ir(&self, bytes: &[u8]) -> bool {
        let is_ir = bitcode_schema::Bitstream::new(bytes).is_ok_and(|s| s.magic() == Magic::LlvmIr);
        let mut open = Vec::new();
        !is_ir
            && self.entries.iter().any(|entry| {
                if let Some(id) = entry.get("enter").and_then(Value::as_u64) {
                    open.push(id);
                } else if entry.get("end").is_some() {
                    open.pop();
                } else {
                    let code = entry.get("record").and_then(Value::as_u64);
                    return open.last() == Some(&u64::from(METADATA_BLOCK))
                        && code == Some(u64::from(METADATA_STRINGS))
                        && entry.get("blob").is_some();
                }
                false
            })
    }

    /// What of the container the trace shows, for the generator's coverage.
    pub fn features(&self, bytes: &[u8]) -> Vec<&'static str> {
        let mut features = Vec::new();
        let mut add = |f| {
            if !features.contains(&f) {
                features.push(f)
            }
        };
        if bytes.starts_with(&0x0B17_C0DEu32.to_le_bytes()) {
            add("a wrapper header");
        }
        let (mut depth, mut deepest, mut top_level, mut blockinfos) = (0, 0, 0, 0);
        for entry in &self.entries {
            if let Some(id) = entry.get("enter").and_then(Value::as_u64) {
                top_level += usize::from(depth == 0);
                blockinfos += usize::from(id == 0);
                depth += 1;
                deepest = deepest.max(depth);
            } else if entry.get("end").is_some() {
                depth -= 1;
            } else {
                let ops = entry["ops"].as_array().map_or(&[][..], Vec::as_slice);
                let abbreviated = !entry["abbrev"].is_null();
                if ops.iter().any(|v| v.as_u64() == Some(u64::MAX)) {
                    add("an operand of 2^64-1");
                }
                match (abbreviated, ops.len(), entry.get("blob").and_then(Value::as_str)) {
                    (true, _, Some("")) => add("an empty blob"),
                    (true, _, Some(_)) => add("a blob"),
                    (false, 0, _) => add("an unabbreviated record without operands"),
                    (false, n, _) if n > 100 => add("an unabbreviated record of over 100 operands"),
                    _ => {}
                }
            }
        }
        if self.has_abbreviated_blockinfo_record() {
            add("a BLOCKINFO record through an abbreviation");
        }
        if top_level > 1 {
            add("several top-level blocks");
        }
        if blockinfos > 1 {
            add("a second BLOCKINFO block");
        }
        if deepest == bitcode_schema::Limits::default().max_depth {
            add("blocks nested to the depth limit");
        }
        features
    }

    /// True when a record inside a BLOCKINFO block was read through an abbreviation.
    pub fn has_abbreviated_blockinfo_record(&self) -> bool {
        let mut open = Vec::new();
        for entry in &self.entries {
            if let Some(id) = entry.get("enter").and_then(Value::as_u64) {
                open.push(id);
            } else if entry.get("end").is_some() {
                open.pop();
            } else if open.last() == Some(&0) && !entry["abbrev"].is_null() {
                return true;
            }
        }
        false
    }
}

/// LLVM IR's METADATA block and its METADATA_STRINGS record.
const METADATA_BLOCK: u32 = 15;
const METADATA_STRINGS: u32 = 35;

fn walk(bytes: &[u8], entries: &mut Vec<Value>) -> Result<(), bitcode_schema::Error> {
    let input = Input::parse(bytes)?;
    for stream in input.streams()? {
        let is_ir = stream.magic() == Magic::LlvmIr;
        let mut cursor = stream.cursor();
        while let Some(entry) = cursor.next_entry()? {
            if let Entry::Record(r) = &entry {
                // In LLVM IR, a metadata string blob must split into its strings, as LLVM's
                // reader (and `bcdump --check`) requires; llvm-bcanalyzer splits it to print it.
                if let (true, Some(blob), Some(METADATA_BLOCK)) = (is_ir, r.blob, r.path.ids().last()) {
                    if r.code == METADATA_STRINGS {
                        metadata_strings_split(r.ops, blob, r.bit_offset)?;
                    }
                }
            }
            entries.push(match entry {
                Entry::Block(h) => json!({"enter": h.id, "abbrev_width": h.abbrev_width, "words": h.words}),
                Entry::EndBlock(id) => json!({"end": id}),
                Entry::Record(r) => {
                    let mut record = json!({"record": r.code, "abbrev": r.abbreviation(), "ops": r.ops});
                    if let Some(blob) = r.blob {
                        record["blob"] = Value::String(hex(blob));
                    }
                    record
                }
            });
        }
    }
    Ok(())
}

fn metadata_strings_split(ops: &[u64], blob: &[u8], at: u64) -> Result<(), bitcode_schema::Error> {
    let invalid = |problem: &str| {
        bitcode_schema::Error::new(ErrorKind::Invalid(format!("METADATA_STRINGS: {problem}")), at)
    };
    let [count, offset] = ops else { return Err(invalid("not two operands")) };
    // LLVM keeps the low 32 bits of each.
    bitcode_schema::llvm::metadata_strings(*count as u32, *offset as u32, blob).map(drop).map_err(invalid)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The first entry where two traces differ, in words; `None` when they agree (under
/// `compare-trace`'s rule: a blob the analyzer printed as decoded strings matches any blob).
pub fn first_difference(expected: &[Value], actual: &[Value]) -> Option<String> {
    for (i, (e, a)) in expected.iter().zip(actual).enumerate() {
        if !same_entry(e, a) {
            return Some(format!("entry {} differs:\n  llvm-bcanalyzer {e}\n  project         {a}", i + 1));
        }
    }
    (expected.len() != actual.len())
        .then(|| format!("llvm-bcanalyzer gives {} entries, the project {}", expected.len(), actual.len()))
}

fn same_entry(expected: &Value, actual: &Value) -> bool {
    if expected.get("blob").is_some_and(Value::is_object) {
        let strip = |v: &Value| {
            let mut v = v.clone();
            v.as_object_mut().map(|o| o.remove("blob"));
            v
        };
        return actual.get("blob").is_some() && strip(expected) == strip(actual);
    }
    expected == actual
}
