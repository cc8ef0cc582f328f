//! Counts of blocks and records per block id: a walk that decodes every operand and
//! prints nothing per record.

use std::collections::BTreeMap;
use std::io::Write;

use bitcode_schema::{Bitstream, Entry};

/// Counts for one block id.
#[derive(Default)]
struct PerBlock {
    name: Option<String>,
    blocks: u64,
    records: u64,
    abbreviated: u64,
    operands: u64,
    blob_bytes: u64,
    /// Records per code, with the code's name once known.
    per_code: BTreeMap<u32, PerCode>,
}

/// Counts for one record code of a block.
#[derive(Default)]
struct PerCode {
    name: Option<String>,
    records: u64,
}

/// Counts over every stream walked so far.
#[derive(Default)]
pub struct Stats {
    per_block: BTreeMap<u32, PerBlock>,
}

impl Stats {
    /// Walks every entry of `stream`.
    pub fn walk(&mut self, stream: &Bitstream<'_>) -> bitcode_schema::Result<()> {
        let mut cursor = stream.cursor();
        // The innermost block's counts, looked up once per block rather than per record.
        let mut stack: Vec<u32> = Vec::new();
        let mut current = PerBlock::default();
        let mut current_id: Option<u32> = None;
        while let Some(entry) = cursor.next_entry()? {
            match entry {
                Entry::Block(h) => {
                    if let Some(id) = current_id {
                        self.merge(id, std::mem::take(&mut current));
                        stack.push(id);
                    }
                    current_id = Some(h.id);
                    current.blocks += 1;
                }
                Entry::EndBlock(id) => {
                    self.merge(id, std::mem::take(&mut current));
                    current_id = stack.pop();
                }
                Entry::Record(r) => {
                    current.records += 1;
                    current.abbreviated += u64::from(r.abbreviation().is_some());
                    current.operands += r.ops.len() as u64;
                    current.blob_bytes += r.blob.map_or(0, |b| b.len() as u64);
                    current.per_code.entry(r.code).or_default().records += 1;
                }
            }
        }
        for (id, entry) in self.per_block.iter_mut() {
            if entry.name.is_none() {
                entry.name = cursor.block_info().block_name(*id).map(str::to_owned);
            }
            for (code, per_code) in entry.per_code.iter_mut() {
                if per_code.name.is_none() {
                    per_code.name = cursor.block_info().record_name(*id, *code).map(str::to_owned);
                }
            }
        }
        Ok(())
    }

    fn merge(&mut self, id: u32, counts: PerBlock) {
        let e = self.per_block.entry(id).or_default();
        e.blocks += counts.blocks;
        e.records += counts.records;
        e.abbreviated += counts.abbreviated;
        e.operands += counts.operands;
        e.blob_bytes += counts.blob_bytes;
        for (code, c) in counts.per_code {
            e.per_code.entry(code).or_default().records += c.records;
        }
    }

    /// Names the blocks and records the schema of `magic` knows (before BLOCKINFO's
    /// names): `block_name(magic, id)`, `record_name(magic, block id, code)`.
    pub fn name_blocks(
        &mut self,
        magic: bitcode_schema::Magic,
        block_name: impl Fn(bitcode_schema::Magic, u32) -> Option<&'static str>,
        record_name: impl Fn(bitcode_schema::Magic, u32, u32) -> Option<&'static str>,
    ) {
        for (id, entry) in self.per_block.iter_mut() {
            if let Some(n) = block_name(magic, *id) {
                entry.name = Some(n.to_owned());
            }
            for (code, per_code) in entry.per_code.iter_mut() {
                if let Some(n) = record_name(magic, *id, *code) {
                    per_code.name = Some(n.to_owned());
                }
            }
        }
    }

    /// Prints one JSON object: `{"per_block": [{"id", "name", "blocks", "records",
    /// "abbreviated", "operands", "blob_bytes", "per_record": [{"code", "name",
    /// "records"}...]}...], "records": N, "blocks": M}`.
    pub fn write_json(&self, out: &mut impl Write) -> std::io::Result<()> {
        let per_block: Vec<serde_json::Value> = self
            .per_block
            .iter()
            .map(|(id, e)| {
                let per_record: Vec<serde_json::Value> = e
                    .per_code
                    .iter()
                    .map(
                        |(code, c)| serde_json::json!({ "code": code, "name": c.name, "records": c.records }),
                    )
                    .collect();
                serde_json::json!({
                    "id": id, "name": e.name, "blocks": e.blocks, "records": e.records,
                    "abbreviated": e.abbreviated, "operands": e.operands, "blob_bytes": e.blob_bytes,
                    "per_record": per_record,
                })
            })
            .collect();
        let records: u64 = self.per_block.values().map(|e| e.records).sum();
        let blocks: u64 = self.per_block.values().map(|e| e.blocks).sum();
        let summary = serde_json::json!({ "per_block": per_block, "records": records, "blocks": blocks });
        serde_json::to_writer(&mut *out, &summary).map_err(std::io::Error::other)?;
        writeln!(out)
    }

    /// Prints one line per block id, each followed by one indented line per record code
    /// (`  record 1 VERSION: records=1`), then `records=N blocks=M`.
    pub fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        let (mut records, mut blocks) = (0, 0);
        for (id, e) in &self.per_block {
            let name = e.name.as_deref().map(|n| format!(" {n}")).unwrap_or_default();
            writeln!(
                out,
                "block {id}{name}: blocks={} records={} abbreviated={} operands={} blob_bytes={}",
                e.blocks, e.records, e.abbreviated, e.operands, e.blob_bytes
            )?;
            for (code, c) in &e.per_code {
                let name = c.name.as_deref().map(|n| format!(" {n}")).unwrap_or_default();
                writeln!(out, "  record {code}{name}: records={}", c.records)?;
            }
            records += e.records;
            blocks += e.blocks;
        }
        writeln!(out, "records={records} blocks={blocks}")
    }
}
