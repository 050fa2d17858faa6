/** What the API and the tokens page show of a token: never the hash. */
type ApiTokenStatus = "active" | "expired" | "revoked";

export type ApiTokenView = {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  status: ApiTokenStatus;
};

type ApiTokenRecord = {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
};

function apiTokenStatus(record: Pick<ApiTokenRecord, "expiresAt" | "revokedAt">, now: Date): ApiTokenStatus {
  if (record.revokedAt) return "revoked";
  if (record.expiresAt && record.expiresAt.getTime() <= now.getTime()) return "expired";
  return "active";
}

export function toApiTokenView(record: ApiTokenRecord, now: Date): ApiTokenView {
  return {
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    createdAt: record.createdAt.toISOString(),
    lastUsedAt: record.lastUsedAt?.toISOString() ?? null,
    expiresAt: record.expiresAt?.toISOString() ?? null,
    revokedAt: record.revokedAt?.toISOString() ?? null,
    status: apiTokenStatus(record, now),
  };
}

export const API_TOKEN_VIEW_SELECT = {
  id: true,
  name: true,
  prefix: true,
  createdAt: true,
  lastUsedAt: true,
  expiresAt: true,
  revokedAt: true,
} as const;
