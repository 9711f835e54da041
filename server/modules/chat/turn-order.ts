// Group chat turn order: who answers a user message (named first, then by talkativeness), at most 3 speakers.
import { escapeRegExp } from "../../../common/regex";

/** A group member as the turn order sees it. */
export interface TurnCandidate {
  id: string;
  name: string;
  /** 0..1: how eager the character is to speak unprompted (default 0.5). */
  talkativeness: number;
}

/** spec/at most 3 characters answer one user message. */
export const MAX_SPEAKERS_PER_MESSAGE = 3;

/**
 * Chooses who answers a user message in a group chat, in order (the turn order):
 * 1. characters named in the message answer first, in the order they are named;
 * 2. otherwise one character is drawn by talkativeness weight, leaving out whoever spoke last
 *    (never the same character twice in a row unless addressed);
 * 3. then each remaining member may join with probability talkativeness / 2, up to
 *    MAX_SPEAKERS_PER_MESSAGE speakers in all, again never the last speaker unaddressed.
 * @param random a source of numbers in [0, 1) (injectable for tests).
 * @returns member ids, first speaker first; never empty when there are members.
 */
export function chooseSpeakers(
  message: string,
  members: TurnCandidate[],
  lastSpeakerId: string | undefined,
  random: () => number = Math.random,
): string[] {
  if (members.length === 0) return [];
  const named = members
    .map((m) => ({
      m,
      at: message.search(new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(m.name)}(?=$|[^\\p{L}\\p{N}])`, "iu")),
    }))
    .filter((x) => x.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((x) => x.m.id)
    .slice(0, MAX_SPEAKERS_PER_MESSAGE);
  if (named.length > 0) return named;

  const eligible = members.filter((m) => m.id !== lastSpeakerId);
  const pool = eligible.length > 0 ? eligible : members;
  const speakers = [weightedPick(pool, random).id];
  for (const member of pool) {
    if (speakers.length >= MAX_SPEAKERS_PER_MESSAGE) break;
    if (speakers.includes(member.id)) continue;
    if (random() < member.talkativeness / 2) speakers.push(member.id);
  }
  return speakers;
}

function weightedPick(pool: TurnCandidate[], random: () => number): TurnCandidate {
  const weights = pool.map((m) => Math.max(0.05, m.talkativeness));
  let roll = random() * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < pool.length; i++) {
    roll -= weights[i]!;
    if (roll < 0) return pool[i]!;
  }
  return pool.at(-1)!;
}
