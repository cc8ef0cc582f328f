//! The small expressions of byte-framed schemas: a field's `present_if`, an array's
//! `until`, and a `count` other than a plain field name.
//!
//! ```text
//! test  := all ('||' all)*
//! all   := not ('&&' not)*
//! not   := '!' not | cmp
//! cmp   := atom (('==' | '!=') NUMBER)?
//! atom  := '@' NAME                  the decode context's answer to a declared query
//!        | NAME ('.' NAME)?          an earlier field, or a part of an earlier flags field
//!        | NUMBER | '(' test ')'
//! count := atom (('+' | '-') NUMBER)?
//! ```
//!
//! A value is a number: a `bool` is 0 or 1, an enum its code, a field that is absent 0.
//! A test is true when its value is not 0.

/// A value the expression reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Atom {
    /// `@name`.
    Query(String),
    /// `field` or `field.part`.
    Field(String, Option<String>),
    /// A number.
    Number(u64),
}

/// A test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Test {
    /// Any of these is true.
    Any(Vec<Test>),
    /// All of these are true.
    All(Vec<Test>),
    /// This is false.
    Not(Box<Test>),
    /// The atom equals (or, with `false`, differs from) the number.
    Compare(Atom, u64, bool),
    /// The atom is not 0.
    Truthy(Atom),
    /// A test in parentheses.
    Nested(Box<Test>),
}

/// A count: an atom plus or minus a number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    /// The value counted from.
    pub atom: Atom,
    /// Added to it (may be negative).
    pub offset: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Name(String),
    Query(String),
    Number(u64),
    Dot,
    Op(&'static str),
}

fn tokens(text: &str) -> Result<Vec<Token>, String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let word = |i: &mut usize| {
        let start = *i;
        while chars.get(*i).is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_') {
            *i += 1;
        }
        chars.get(start..*i).map(|s| s.iter().collect::<String>()).unwrap_or_default()
    };
    while let Some(&c) = chars.get(i) {
        match c {
            ' ' | '\t' => i += 1,
            '@' => {
                i += 1;
                let w = word(&mut i);
                if w.is_empty() {
                    return Err("`@` needs a query name".into());
                }
                out.push(Token::Query(w));
            }
            '.' => {
                i += 1;
                out.push(Token::Dot);
            }
            '0'..='9' => {
                let w = word(&mut i);
                let n = match w.strip_prefix("0x") {
                    Some(hex) => u64::from_str_radix(hex, 16),
                    None => w.parse(),
                };
                out.push(Token::Number(n.map_err(|_| format!("`{w}` is not a number"))?));
            }
            c if c.is_ascii_alphabetic() || c == '_' => out.push(Token::Name(word(&mut i))),
            _ => {
                let rest: String = chars.get(i..).unwrap_or_default().iter().collect();
                let op = ["&&", "||", "==", "!=", "!", "(", ")", "+", "-"]
                    .into_iter()
                    .find(|op| rest.starts_with(op))
                    .ok_or_else(|| format!("unexpected `{c}`"))?;
                i += op.len();
                out.push(Token::Op(op));
            }
        }
    }
    Ok(out)
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn eat(&mut self, op: &str) -> bool {
        if matches!(self.peek(), Some(Token::Op(o)) if *o == op) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn number(&mut self) -> Result<u64, String> {
        match self.peek() {
            Some(Token::Number(n)) => {
                let n = *n;
                self.at += 1;
                Ok(n)
            }
            _ => Err("a number is missing".into()),
        }
    }

    fn any(&mut self) -> Result<Test, String> {
        let mut parts = vec![self.all()?];
        while self.eat("||") {
            parts.push(self.all()?);
        }
        Ok(if parts.len() == 1 { parts.remove(0) } else { Test::Any(parts) })
    }

    fn all(&mut self) -> Result<Test, String> {
        let mut parts = vec![self.not()?];
        while self.eat("&&") {
            parts.push(self.not()?);
        }
        Ok(if parts.len() == 1 { parts.remove(0) } else { Test::All(parts) })
    }

    fn not(&mut self) -> Result<Test, String> {
        if self.eat("!") {
            return Ok(Test::Not(Box::new(self.not()?)));
        }
        if self.eat("(") {
            let inner = self.any()?;
            if !self.eat(")") {
                return Err("a `)` is missing".into());
            }
            return Ok(Test::Nested(Box::new(inner)));
        }
        let atom = self.atom()?;
        if self.eat("==") {
            return Ok(Test::Compare(atom, self.number()?, true));
        }
        if self.eat("!=") {
            return Ok(Test::Compare(atom, self.number()?, false));
        }
        Ok(Test::Truthy(atom))
    }

    fn atom(&mut self) -> Result<Atom, String> {
        let token = self.peek().cloned().ok_or("the expression ends early")?;
        self.at += 1;
        match token {
            Token::Query(q) => Ok(Atom::Query(q)),
            Token::Number(n) => Ok(Atom::Number(n)),
            Token::Name(field) => {
                if self.peek() == Some(&Token::Dot) {
                    self.at += 1;
                    match self.peek().cloned() {
                        Some(Token::Name(part)) => {
                            self.at += 1;
                            Ok(Atom::Field(field, Some(part)))
                        }
                        _ => Err(format!("`{field}.` needs a part name")),
                    }
                } else {
                    Ok(Atom::Field(field, None))
                }
            }
            other => Err(format!("unexpected {other:?}")),
        }
    }

    fn done<T>(&self, value: T) -> Result<T, String> {
        match self.peek() {
            None => Ok(value),
            Some(t) => Err(format!("unexpected {t:?} after the expression")),
        }
    }
}

/// Parses a test.
pub fn parse_test(text: &str) -> Result<Test, String> {
    let mut p = Parser { tokens: tokens(text)?, at: 0 };
    let t = p.any()?;
    p.done(t)
}

/// Parses a count.
pub fn parse_count(text: &str) -> Result<Count, String> {
    let mut p = Parser { tokens: tokens(text)?, at: 0 };
    let atom = p.atom()?;
    let offset = if p.eat("-") {
        -i64::try_from(p.number()?).map_err(|_| "the offset is too large")?
    } else if p.eat("+") {
        i64::try_from(p.number()?).map_err(|_| "the offset is too large")?
    } else {
        0
    };
    p.done(Count { atom, offset })
}

impl Test {
    /// Every atom the test reads.
    pub fn atoms(&self) -> Vec<&Atom> {
        match self {
            Test::Any(v) | Test::All(v) => v.iter().flat_map(Test::atoms).collect(),
            Test::Not(t) | Test::Nested(t) => t.atoms(),
            Test::Compare(a, _, _) | Test::Truthy(a) => vec![a],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tests_and_counts_parse() {
        let t = parse_test("word.linkage == 3 && !word.has_init").unwrap();
        assert_eq!(
            t,
            Test::All(vec![
                Test::Compare(Atom::Field("word".into(), Some("linkage".into())), 3, true),
                Test::Not(Box::new(Test::Truthy(Atom::Field("word".into(), Some("has_init".into()))))),
            ])
        );
        assert_eq!(parse_test("@in_function").unwrap(), Test::Truthy(Atom::Query("in_function".into())));
        assert!(matches!(parse_test("a || (b && c != 0x10)").unwrap(), Test::Any(_)));
        assert_eq!(
            parse_count("tag - 1").unwrap(),
            Count { atom: Atom::Field("tag".into(), None), offset: -1 }
        );
        assert_eq!(parse_count("@elements").unwrap().atom, Atom::Query("elements".into()));
    }

    #[test]
    fn mistakes_are_named() {
        assert!(parse_test("a &&").is_err());
        assert!(parse_test("a == b").is_err());
        assert!(parse_test("(a").is_err());
        assert!(parse_test("a b").is_err());
        assert!(parse_test("a $ b").is_err());
        assert!(parse_count("a * 2").is_err());
        assert!(parse_test("@").is_err());
    }
}
