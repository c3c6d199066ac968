-- A merchant's IP allow-list (docs/api.md, "IP allow-list"): the CIDRs (IPv4 or IPv6) its tokens work
-- from. Empty means no restriction. Changed only through a request a second person approves
-- (docs/operations.md, "Approvals"); the list is checked and normalised before it is stored.

-- AlterTable
ALTER TABLE "merchants" ADD COLUMN "ip_allowlist" TEXT[] NOT NULL DEFAULT '{}';
