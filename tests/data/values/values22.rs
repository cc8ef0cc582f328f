// Value-numbering fixture compiled by rustc (LLVM 22) with `--emit=llvm-bc,llvm-ir`, which
// keeps value names. make.sh builds values22.bc and values22.ll from it.
#![crate_type = "lib"]

#[no_mangle]
pub fn mix(a: u32, b: u32) -> u32 {
    let mut total = a;
    for i in 0..b {
        total = total.wrapping_mul(3).wrapping_add(i);
    }
    match total % 4 {
        0 => total,
        1 => total.wrapping_add(a),
        2 => total ^ b,
        _ => 7,
    }
}

#[no_mangle]
pub fn pick(values: &[u64], index: usize) -> Option<u64> {
    values.get(index).map(|v| v * 2)
}

#[no_mangle]
pub fn pair(x: u32, y: u64) -> (u64, u32) {
    let p = (y.wrapping_add(x as u64), x);
    (p.0, p.1.rotate_left(3))
}

#[inline(never)]
fn may_panic(v: u32) -> u32 {
    if v == 99 {
        panic!("ninety-nine");
    }
    v + 1
}

struct Guard(u32);

impl Drop for Guard {
    fn drop(&mut self) {
        std::hint::black_box(self.0);
    }
}

#[no_mangle]
pub fn guarded(v: u32) -> u32 {
    let g = Guard(v);
    let r = may_panic(v);
    r + g.0
}
