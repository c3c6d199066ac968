-- A person whose password was made for them (added, or reset, on another approver's approval) must choose
-- their own at first sign-in (docs/operations.md, "Security model"): whoever saw the one-time password
-- cannot quietly keep acting as that person. Until then there is no console session, no CLI sign-in and no key.

-- AlterTable
ALTER TABLE "console_users" ADD COLUMN "must_change_password" BOOLEAN NOT NULL DEFAULT false;
