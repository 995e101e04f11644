//! Disputes on a game: opened by a player of the table or an official, resolved by an
//! official. An open dispute holds the tournament: no draw, no advance, no finish until
//! it is resolved (a resolution that changes the result is a separate correction or void).
//! An official who plays in the tournament may open one only at their own table, as its
//! player, and resolves none: holding everyone's tournament is a power over the rivals.

use super::super::command::MAX_TEXT_LEN;
use super::super::error::{Role, TournamentError};
use super::super::event::*;
use super::super::refs::{Context, TableRef};
use super::super::state::State;
use super::{Decision, text};

impl State {
    pub(super) fn decide_open_dispute(
        &self,
        ctx: &Context,
        at: TableRef,
        reason: &str,
    ) -> Decision {
        let table = self.table(at).ok_or(TournamentError::NoSuchTable(at))?;
        let seated = ctx.actor.account().filter(|a| table.players.contains(a));
        self.require(ctx, Role::SeatedPlayerOrOfficial, seated)?;
        if seated.is_none() {
            self.require_neutral(ctx)?;
        }
        let reason = text(reason, MAX_TEXT_LEN, TournamentError::BadReason)?;
        Ok(Event::DisputeOpened(DisputeOpened {
            dispute: self.disputes.len() as u32 + 1,
            table: at,
            reason,
            by: ctx.actor,
        }))
    }

    pub(super) fn decide_resolve_dispute(
        &self,
        ctx: &Context,
        dispute: u32,
        resolution: &str,
    ) -> Decision {
        self.require(ctx, Role::Official, None)?;
        let d = self
            .disputes
            .iter()
            .find(|d| d.id == dispute)
            .ok_or(TournamentError::NoSuchDispute(dispute))?;
        if d.resolution.is_some() {
            return Err(TournamentError::DisputeResolved(dispute));
        }
        self.require_neutral(ctx)?;
        let resolution = text(resolution, MAX_TEXT_LEN, TournamentError::BadReason)?;
        Ok(Event::DisputeResolved(DisputeResolved {
            dispute,
            resolution,
            by: ctx.actor,
        }))
    }
}
