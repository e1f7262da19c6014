package cloudevents

import (
	"encoding/base64"
	"fmt"
	"os"
	"strings"
)

// CertKeys are the CA and client certificate keys that the MQTT and the gRPC
// config files share, as written.
// Each *Data key holds base64 of PEM; each *File key holds a path.
type CertKeys struct {
	CAFile         string `json:"caFile"`
	CAData         string `json:"caData"`
	ClientCertFile string `json:"clientCertFile"`
	ClientCertData string `json:"clientCertData"`
	ClientKeyFile  string `json:"clientKeyFile"`
	ClientKeyData  string `json:"clientKeyData"`
}

// DataOrFile is data decoded from base64 when data is set. Otherwise it is
// the content of file when file is set, and nil when neither is. fromFile
// tells whether the file was read. An error names dataKey or fileKey.
func DataOrFile(dataKey, data, fileKey, file string) (pem []byte, fromFile bool, err error) {
	if data != "" {
		pem, err = base64.StdEncoding.DecodeString(strings.TrimSpace(data))
		if err != nil {
			return nil, false, fmt.Errorf("%s: not base64: %w", dataKey, err)
		}
		return pem, false, nil
	}
	if file == "" {
		return nil, false, nil
	}
	pem, err = os.ReadFile(file)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", fileKey, err)
	}
	return pem, true, nil
}
