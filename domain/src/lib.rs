pub mod cards;
pub mod combos;
pub mod rules;
pub mod shuffle;
pub mod game;
