-- A project's name is unique within its organization; the database enforces it so that two
-- concurrent creations cannot both succeed.
CREATE UNIQUE INDEX projects_organization_name ON projects (organization_id, name);
