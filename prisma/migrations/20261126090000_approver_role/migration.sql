-- A person who approves the money actions another person requested (docs/operations.md, "Roles").
-- PostgreSQL lets a transaction add an enum value but not use it before it commits, so nothing uses it here.
ALTER TYPE "console_role" ADD VALUE 'APPROVER';
