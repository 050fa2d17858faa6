import type { EntityType as DbEntityType } from "@/lib/platform/generated/prisma";
import type { EntityType } from "@/lib/core/dataset/release-schema";

/** Prisma enum names cannot hold a space; the database stores "Military Unit" via @map. */
export function toDbEntityType(type: EntityType): DbEntityType {
  return type === "Military Unit" ? "MilitaryUnit" : type;
}

export function fromDbEntityType(type: DbEntityType): EntityType {
  return type === "MilitaryUnit" ? "Military Unit" : type;
}
