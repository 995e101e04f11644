//! A small `--name value` argument reader: enough for three subcommands without a parser
//! dependency.

use std::collections::BTreeMap;
use std::str::FromStr;

#[derive(Debug)]
pub struct Args {
    named: BTreeMap<String, String>,
    pub positional: Vec<String>,
}

impl Args {
    /// Parses `args`; every `--name` takes the next word as its value, and only the names
    /// in `known` are accepted.
    pub fn parse(args: &[String], known: &[&str]) -> Result<Args, String> {
        let mut named = BTreeMap::new();
        let mut positional = Vec::new();
        let mut words = args.iter();
        while let Some(word) = words.next() {
            match word.strip_prefix("--") {
                Some(name) if known.contains(&name) => {
                    let value = words
                        .next()
                        .ok_or_else(|| format!("--{name} needs a value"))?;
                    named.insert(name.to_owned(), value.clone());
                }
                Some(name) => return Err(format!("unknown option --{name}")),
                None => positional.push(word.clone()),
            }
        }
        Ok(Args { named, positional })
    }

    pub fn get<T: FromStr>(&self, name: &str) -> Result<Option<T>, String>
    where
        T::Err: std::fmt::Display,
    {
        self.named
            .get(name)
            .map(|v| v.parse::<T>().map_err(|e| format!("--{name} {v:?}: {e}")))
            .transpose()
    }

    pub fn require<T: FromStr>(&self, name: &str) -> Result<T, String>
    where
        T::Err: std::fmt::Display,
    {
        self.get(name)?
            .ok_or_else(|| format!("--{name} is required"))
    }
}
