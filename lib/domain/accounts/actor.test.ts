import { describe, expect, it } from "vitest";
import {
  ANONYMOUS,
  isMaintainer,
  requireMaintainer,
  requireOwnerOrMaintainer,
  requireSession,
  requireUser,
  type UserActor,
} from "@/lib/domain/accounts/actor";
import { AppError, toHttpStatus } from "@/lib/core/errors";

const participant: UserActor = { kind: "user", userId: "u-ada", role: "PARTICIPANT", displayName: "Ada", via: "session" };
const participantToken: UserActor = { ...participant, via: "token", tokenId: "t-1" };
const maintainer: UserActor = { kind: "user", userId: "u-max", role: "MAINTAINER", displayName: "Max", via: "session" };
const maintainerToken: UserActor = { ...maintainer, via: "token", tokenId: "t-2" };

function statusOf(run: () => unknown): number {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return toHttpStatus(error);
  }
  return 200;
}

describe("guards", () => {
  it("requireUser: 401 for anonymous, the user otherwise", () => {
    expect(statusOf(() => requireUser(ANONYMOUS))).toBe(401);
    expect(requireUser(participantToken)).toBe(participantToken);
  });

  it("requireSession: API tokens get 403", () => {
    expect(statusOf(() => requireSession(ANONYMOUS))).toBe(401);
    expect(statusOf(() => requireSession(participantToken))).toBe(403);
    expect(requireSession(participant)).toBe(participant);
  });

  it("requireMaintainer: only a maintainer's session passes", () => {
    expect(statusOf(() => requireMaintainer(ANONYMOUS))).toBe(401);
    expect(statusOf(() => requireMaintainer(participant))).toBe(403);
    expect(statusOf(() => requireMaintainer(maintainerToken))).toBe(403);
    expect(requireMaintainer(maintainer)).toBe(maintainer);
  });

  it("requireOwnerOrMaintainer: someone else's object is 404", () => {
    expect(statusOf(() => requireOwnerOrMaintainer(ANONYMOUS, "u-ada"))).toBe(401);
    expect(requireOwnerOrMaintainer(participant, "u-ada")).toBe(participant);
    expect(requireOwnerOrMaintainer(participantToken, "u-ada")).toBe(participantToken);
    expect(statusOf(() => requireOwnerOrMaintainer(participant, "u-bob"))).toBe(404);
    expect(requireOwnerOrMaintainer(maintainer, "u-bob")).toBe(maintainer);
    expect(statusOf(() => requireOwnerOrMaintainer(maintainerToken, "u-bob"))).toBe(404);
  });

  it("isMaintainer needs the role and a session", () => {
    expect(isMaintainer(ANONYMOUS)).toBe(false);
    expect(isMaintainer(participant)).toBe(false);
    expect(isMaintainer(maintainerToken)).toBe(false);
    expect(isMaintainer(maintainer)).toBe(true);
  });
});
