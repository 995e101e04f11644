//! [`PlayerMap`]: a JSON object keyed by player name that keeps its order (records and
//! results list players in seat order) and rejects a name given twice, where a plain map
//! would silently keep the last value.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerMap<T>(pub Vec<(String, T)>);

impl<T> Default for PlayerMap<T> {
    fn default() -> Self {
        PlayerMap(Vec::new())
    }
}

impl<T> PlayerMap<T> {
    pub fn new() -> Self {
        PlayerMap(Vec::new())
    }

    pub fn get(&self, name: &str) -> Option<&T> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &T)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Appends an entry (no check for duplicates: for building results and exports).
    pub fn push(&mut self, name: impl Into<String>, value: T) {
        self.0.push((name.into(), value));
    }
}

impl<T> FromIterator<(String, T)> for PlayerMap<T> {
    fn from_iter<I: IntoIterator<Item = (String, T)>>(iter: I) -> Self {
        PlayerMap(iter.into_iter().collect())
    }
}

impl<T: Serialize> Serialize for PlayerMap<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for PlayerMap<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MapVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for MapVisitor<T> {
            type Value = PlayerMap<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object keyed by player name")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<PlayerMap<T>, A::Error> {
                let mut entries: Vec<(String, T)> = Vec::new();
                while let Some(name) = access.next_key::<String>()? {
                    if entries.iter().any(|(n, _)| *n == name) {
                        let shown: String = name.chars().take(64).collect();
                        return Err(de::Error::custom(format!("player {shown:?} appears twice")));
                    }
                    let value = access.next_value::<T>()?;
                    entries.push((name, value));
                }
                Ok(PlayerMap(entries))
            }
        }
        deserializer.deserialize_map(MapVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_and_rejects_a_name_twice() {
        let map: PlayerMap<u32> = serde_json::from_str(r#"{"cid": 3, "ann": 1}"#).expect("parses");
        assert_eq!(map.0, vec![("cid".to_owned(), 3), ("ann".to_owned(), 1)]);
        assert_eq!(
            serde_json::to_string(&map).ok().as_deref(),
            Some(r#"{"cid":3,"ann":1}"#)
        );
        let twice = serde_json::from_str::<PlayerMap<u32>>(r#"{"ann": 1, "ann": 2}"#);
        assert!(twice.is_err_and(|e| e.to_string().contains("appears twice")));
    }
}
