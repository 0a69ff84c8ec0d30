package gotypes

// loggingMethods are the method names of loggers (log, slog, zap's sugared
// logger, zerolog's events, logrus): a call of one only records what it is
// given. The ordering checks read an error passed to one as still
// unchecked; the DLQ stage reads a message passed to one as written nowhere.
var loggingMethods = map[string]bool{
	"Print": true, "Printf": true, "Println": true,
	"Error": true, "Errorf": true, "Errorw": true, "ErrorContext": true,
	"Warn": true, "Warnf": true, "Warnw": true, "WarnContext": true, "Warning": true, "Warningf": true,
	"Info": true, "Infof": true, "Infow": true, "InfoContext": true,
	"Debug": true, "Debugf": true, "Debugw": true, "DebugContext": true,
	"Log": true, "Logf": true, "Err": true, "Msg": true, "Msgf": true, "With": true,
}

// IsLoggingMethod reports whether name is a logger method's name, whatever
// its receiver.
func IsLoggingMethod(name string) bool { return loggingMethods[name] }
