-- The audit log (io.hotrank.audit.AuditLog): one row per operator action or automatic change
-- (control set, removed or expired; task created, paused, triggered; recompute, rebuild, fold),
-- written in the same transaction as the change where the change has one. Keep in step with the
-- other dialects' V9. Instants are BIGINT epoch milliseconds, as in V1; before and after are JSON.
CREATE TABLE hr_audit (
  id BIGINT NOT NULL AUTO_INCREMENT,
  at         BIGINT       NOT NULL,
  actor      VARCHAR(64)  NOT NULL,
  action     VARCHAR(64)  NOT NULL,
  target     VARCHAR(200) NOT NULL,
  reason     VARCHAR(500),
  before_json MEDIUMTEXT,
  after_json  MEDIUMTEXT,
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The console and GET /api/v1/admin/audit list newest first, all or one target's.
CREATE INDEX hr_audit_target ON hr_audit (target, id);
CREATE INDEX hr_audit_at ON hr_audit (at);
